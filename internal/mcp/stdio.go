package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioDrainLimit bounds how long the server keeps answering after the
// agent closed its input: long enough for a tool call to reach the service.
const stdioDrainLimit = 30 * time.Second

// RunStdio serves one agent over stdin and stdout until ctx ends or the
// agent closes the stream (botpay mcp). Requests piped in just before the
// input closes are still answered: the end of input is passed on only once
// every request read has its answer written (or stdioDrainLimit passed).
func RunStdio(ctx context.Context, d *Deps, o Options) error {
	return NewServer(Fixed(d), o).Run(ctx, drainingTransport(os.Stdin, os.Stdout))
}

func drainingTransport(in io.ReadCloser, out io.WriteCloser) *sdk.IOTransport {
	p := &pending{answeredSignal: make(chan struct{}, 1)}
	w := &countingWriter{out: out, pending: p}
	// A refused message is neither counted as asked nor its error as
	// answered, so the drain at the end of input waits for the others only.
	filtered := &duplicateFilter{in: in, refuse: w.writeUncounted}
	return &sdk.IOTransport{
		Reader: &countingReader{in: readCloser{filtered, in}, pending: p},
		Writer: w,
	}
}

// readCloser reads through a filter and closes the stream under it.
type readCloser struct {
	io.Reader
	io.Closer
}

// pending counts the requests read and the answers written.
type pending struct {
	mu              sync.Mutex
	asked, answered int
	answeredSignal  chan struct{}
}

func (p *pending) add(asked, answered int) {
	if asked == 0 && answered == 0 {
		return
	}
	p.mu.Lock()
	p.asked += asked
	p.answered += answered
	p.mu.Unlock()
	select {
	case p.answeredSignal <- struct{}{}:
	default:
	}
}

func (p *pending) allAnswered() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.answered >= p.asked
}

// wait returns once every request has its answer, or at the limit.
func (p *pending) wait(limit time.Duration) {
	deadline := time.After(limit)
	for !p.allAnswered() {
		select {
		case <-p.answeredSignal:
		case <-deadline:
			return
		}
	}
}

// lines splits a stream into newline-delimited JSON-RPC messages and
// counts requests (a method and an id) and answers (an id, no method).
type lines struct{ partial []byte }

func (l *lines) count(b []byte) (requests, answers int) {
	l.partial = append(l.partial, b...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return requests, answers
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		if json.Unmarshal(l.partial[:i], &msg) == nil && len(msg.ID) > 0 && string(msg.ID) != "null" {
			if msg.Method != nil {
				requests++
			} else {
				answers++
			}
		}
		l.partial = l.partial[i+1:]
	}
}

type countingReader struct {
	in      io.ReadCloser
	lines   lines
	pending *pending
}

func (r *countingReader) Read(b []byte) (int, error) {
	n, err := r.in.Read(b)
	asked, _ := r.lines.count(b[:n])
	r.pending.add(asked, 0)
	if err == io.EOF {
		r.pending.wait(stdioDrainLimit)
	}
	return n, err
}

func (r *countingReader) Close() error { return r.in.Close() }

type countingWriter struct {
	mu      sync.Mutex
	out     io.WriteCloser
	lines   lines
	pending *pending
	queued  [][]byte // refusals waiting for the end of a part-written answer
}

func (w *countingWriter) Write(b []byte) (int, error) {
	w.mu.Lock() // whole messages: a refusal never lands inside an answer
	n, err := w.out.Write(b)
	_, answered := w.lines.count(b[:n])
	if len(w.lines.partial) == 0 {
		for _, q := range w.queued {
			w.out.Write(q)
		}
		w.queued = nil
	}
	w.mu.Unlock()
	w.pending.add(0, answered)
	return n, err
}

// writeUncounted writes an answer the server did not give (a refused
// message's error) between its own answers.
func (w *countingWriter) writeUncounted(b []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.lines.partial) > 0 {
		w.queued = append(w.queued, b) // after the answer the SDK is part-way through
		return
	}
	w.out.Write(b)
}

func (w *countingWriter) Close() error { return w.out.Close() }
