package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// tally is what one worker observed; workers never share one, so the hot
// loop takes no locks.
type tally struct {
	latencies []time.Duration // of requests that got an HTTP answer
	statuses  map[int]int64
	errs      map[string]int64
}

func newTally() *tally {
	return &tally{latencies: make([]time.Duration, 0, 1<<14), statuses: map[int]int64{}, errs: map[string]int64{}}
}

// phase is one bounded run of all workers.
type phase struct {
	sender  func() sender // one per worker
	build   newRequest
	workers int
	until   time.Time     // zero: no time bound
	budget  *atomic.Int64 // nil: no count bound
	seq     *atomic.Int64 // shared so names stay unique across phases
}

// benchmark sets the scenario up, warms up, then measures.
func benchmark(ctx context.Context, o options) (Result, error) {
	base, err := loopbackURL(o.url)
	if err != nil {
		return Result{}, err
	}
	client := newClient(o.concurrency, o.timeout)
	defer closeIdle(client)
	setupCtx, cancel := context.WithTimeout(ctx, time.Minute)
	build, err := scenarios[o.scenario](setupCtx, client, base.String(), setupConfig{runID: newRunID(), apiKey: o.apiKey, bots: o.bots, workers: o.concurrency,
		callbackURL: o.callbackURL})
	cancel()
	if err != nil {
		return Result{}, err
	}
	seq := new(atomic.Int64)
	senders := func() sender { return clientSender{client} }
	if o.client != clientTransport {
		senders = func() sender { return newConnSender(base.Host, o.timeout) }
	}
	if o.warmup > 0 {
		warm := phase{sender: senders, build: build, workers: o.concurrency, until: time.Now().Add(o.warmup), seq: seq}
		warm.run(ctx)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	p := phase{sender: senders, build: build, workers: o.concurrency, seq: seq}
	if o.requests > 0 {
		p.budget = new(atomic.Int64)
		p.budget.Store(o.requests)
	}
	before, haveCPU := o.watch.sample()
	started := time.Now()
	if o.duration > 0 {
		p.until = started.Add(o.duration)
	}
	tallies := p.run(ctx)
	elapsed := time.Since(started)
	res := summarize(tallies, elapsed)
	if after, ok := o.watch.sample(); ok && haveCPU {
		c := cpuBetween(before, after, res.Requests)
		res.CPU = &c
	}
	res.Label, res.Scenario, res.URL, res.Client = o.label, o.scenario, base.String(), o.client
	res.Concurrency, res.Started, res.GoMaxProcs = o.concurrency, started.UTC().Format(time.RFC3339), runtime.GOMAXPROCS(0)
	return res, nil
}

// run starts the workers and waits for all of them. A worker stops before
// starting a request once the time or count bound is reached (or ctx is
// cancelled); requests already in flight finish and are counted.
func (p phase) run(ctx context.Context) []*tally {
	tallies := make([]*tally, p.workers)
	var wg sync.WaitGroup
	for i := range tallies {
		tallies[i] = newTally()
		wg.Add(1)
		go func(w int, t *tally) {
			defer wg.Done()
			p.worker(ctx, w, t)
		}(i, tallies[i])
	}
	wg.Wait()
	return tallies
}

func (p phase) more(ctx context.Context) bool {
	if ctx.Err() != nil {
		return false
	}
	if !p.until.IsZero() && !time.Now().Before(p.until) {
		return false
	}
	return p.budget == nil || p.budget.Add(-1) >= 0
}

func (p phase) worker(ctx context.Context, w int, t *tally) {
	s := p.sender()
	defer s.close()
	for p.more(ctx) {
		req, err := p.build(ctx, w, p.seq.Add(1))
		if err != nil {
			t.errs["build: "+err.Error()]++
			return
		}
		start := time.Now()
		status, err := s.send(req)
		elapsed := time.Since(start)
		if err != nil {
			if ctx.Err() != nil {
				return // interrupted: not a server error
			}
			t.errs[errorKind(err)]++
			continue
		}
		t.statuses[status]++
		t.latencies = append(t.latencies, elapsed)
	}
}

// roundTrip sends req and drains the body so the connection is reused.
func roundTrip(c *http.Client, req *http.Request) (int, error) {
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, err
}

// errorKind folds transport errors into a few stable names.
func errorKind(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection_refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "connection_reset"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "eof"
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return "no_local_port"
	default:
		return "other"
	}
}

func statusKey(code int) string { return strconv.Itoa(code) }
