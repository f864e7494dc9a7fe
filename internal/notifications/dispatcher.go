package notifications

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/egress"
	"github.com/botpay/botpay/internal/jobs"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
	"github.com/botpay/botpay/internal/seal"
)

// Defaults of Config.
const (
	DefaultTimeout    = 10 * time.Second // per attempt (docs/decisions.md)
	DefaultLease      = 20 * time.Second // > timeout + recording, so a live claim is never taken over
	DefaultRetryBase  = 30 * time.Second
	DefaultMaxRetries = 5
	DefaultWorkers    = 64
	DefaultPoll       = 500 * time.Millisecond
	DefaultGather     = 5 * time.Millisecond
)

// Config assembles a Dispatcher. Zero values take the defaults.
type Config struct {
	DB *kernel.DB
	// Outbox wakes the dispatcher when this process writes an event.
	Outbox *ledger.Outbox
	Sealer *seal.Sealer
	// HTTP posts webhooks; egress.Client when nil (guard on unless
	// AllowPrivate).
	HTTP         *http.Client
	AllowPrivate bool
	// Tunnel carries managed-tunnel deliveries; nil fails them.
	Tunnel     Relay
	Logger     *slog.Logger
	Timeout    time.Duration
	Lease      time.Duration
	RetryBase  time.Duration
	MaxRetries int
	Workers    int
	// Poll is how often the outbox is read when nothing woke the
	// dispatcher (events written by other replicas).
	Poll time.Duration
	// Gather is how long a wake-up waits for more events before claiming.
	Gather time.Duration
	// PurgeEvery is the interval of the pending-message purge.
	PurgeEvery time.Duration
	// Jobs, when set, runs the purge (registered by New) with the
	// process's other background jobs; otherwise Start runs it.
	Jobs *jobs.Runner
	// ID names this dispatcher's leases; random when empty.
	ID string
	// Observer is told of every delivery attempt (metrics); may be nil.
	Observer Observer
}

// Observer is told of each webhook attempt and, for a success, the time
// since the event was committed.
type Observer interface {
	DeliveryAttempted(delivered bool, lag time.Duration)
}

// Dispatcher delivers outbox events. Run it once per process; any number of
// processes may share a database.
type Dispatcher struct {
	cfg  Config
	db   *kernel.DB
	log  *slog.Logger
	wake chan struct{}
}

// New builds a Dispatcher and hooks it to the outbox's commits so that events
// written in this process are picked up at once.
func New(cfg Config) *Dispatcher {
	def := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	def(&cfg.Timeout, DefaultTimeout)
	def(&cfg.Lease, DefaultLease)
	def(&cfg.RetryBase, DefaultRetryBase)
	def(&cfg.Poll, DefaultPoll)
	def(&cfg.Gather, DefaultGather)
	def(&cfg.PurgeEvery, DefaultPurgeEvery)
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	if cfg.Workers == 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.HTTP == nil {
		cfg.HTTP = egress.Client(egress.Options{AllowPrivate: cfg.AllowPrivate, Timeout: cfg.Timeout})
	}
	if cfg.ID == "" {
		cfg.ID = botpay.NewID("dsp_")
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	d := &Dispatcher{cfg: cfg, db: cfg.DB, log: log, wake: make(chan struct{}, 1)}
	if cfg.Outbox != nil {
		cfg.Outbox.OnEvent(d.Wake)
	}
	if cfg.Jobs != nil {
		cfg.Jobs.Register(d.PurgeJob())
	}
	return d
}

// Wake makes the dispatcher look at the outbox now. It never blocks.
func (d *Dispatcher) Wake() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Backoff is the wait before retry n (1-based): RetryBase·2^(n-1), plus up to
// half of that again as jitter so that retries of many events spread out
// (the background jobs' one schedule, jobs.Backoff, without a bound).
func Backoff(base time.Duration, n int) time.Duration {
	return jobs.Backoff{First: base}.Wait(n)
}

// Run delivers until ctx ends, then lets attempts in flight finish (each is
// bounded by the timeout) and records them before returning.
func (d *Dispatcher) Run(ctx context.Context) {
	slots := make(chan struct{}, d.cfg.Workers)
	freed := make(chan struct{}, 1)
	results := make(chan Finished, d.cfg.Workers)
	var inflight sync.WaitGroup
	recorderDone := make(chan struct{})
	go func() {
		d.record(results, slots, freed)
		close(recorderDone)
	}()
	timer := time.NewTimer(0)
	defer timer.Stop()
	failures := 0 // claims that failed in a row: the database is down
	for ctx.Err() == nil {
		free := d.cfg.Workers - len(slots)
		claimed := 0
		if free > 0 {
			batch, err := claimDeliveries(ctx, d.db, d.cfg.ID, d.cfg.Lease, free)
			switch {
			case err == nil:
				failures = 0
			case ctx.Err() == nil:
				failures++
				d.log.Warn("claiming outbox rows failed", "err", err, "failures_in_a_row", failures)
			}
			claimed = len(batch)
			for _, dl := range batch {
				slots <- struct{}{}
				if !attempts(dl) {
					// Immediate: recorded in claim (outbox) order, so a
					// bot's pending messages get ids in event order.
					results <- d.handle(ctx, dl)
					continue
				}
				inflight.Add(1)
				go func() {
					defer inflight.Done()
					results <- d.handle(context.WithoutCancel(ctx), dl)
				}()
			}
		}
		if claimed > 0 && claimed == free {
			continue // there may be more due right now
		}
		if failures > 0 {
			timer.Reset(outageWait(d.cfg.Poll, failures))
		} else {
			timer.Reset(d.idleWait(ctx))
		}
		select {
		case <-ctx.Done():
		case <-d.wake:
			// Let the events of other requests committing right now join
			// this one's batch: one claim and one record for several
			// events instead of one each, at a few milliseconds of lag.
			sleep(ctx, d.cfg.Gather)
		case <-freed:
		case <-timer.C:
		}
	}
	inflight.Wait()
	close(results)
	<-recorderDone
}

// outageWait backs off while the database cannot be reached: the poll
// interval doubled per failed claim in a row, at most 30 s, so an outage
// is not met with a storm of retries and the dispatcher resumes by itself.
func outageWait(poll time.Duration, failures int) time.Duration {
	return min(poll<<min(failures, 10), 30*time.Second)
}

// idleWait is how long to wait for a wake-up: the poll interval, or less
// when a retry or an expired lease falls due sooner.
func (d *Dispatcher) idleWait(ctx context.Context) time.Duration {
	wait := d.cfg.Poll
	at, ok, err := nextDue(ctx, d.db)
	if err != nil || !ok {
		return wait
	}
	until := at.Sub(d.db.Clock().Now())
	floor := min(10*time.Millisecond, wait)
	return max(min(wait, until), floor)
}

// record writes results in batches: whatever has arrived by the time the
// previous batch committed goes in one transaction.
func (d *Dispatcher) record(results <-chan Finished, slots chan struct{}, freed chan struct{}) {
	for f := range results {
		batch := []Finished{f}
	drain:
		for len(batch) < 256 {
			select {
			case more, ok := <-results:
				if !ok {
					break drain
				}
				batch = append(batch, more)
			default:
				break drain
			}
		}
		d.finish(batch)
		for range batch {
			<-slots
		}
		select {
		case freed <- struct{}{}:
		default:
		}
	}
}

// finish records a batch, retrying a few times: a result that is never
// recorded only means the event is delivered again after its lease.
func (d *Dispatcher) finish(batch []Finished) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for try := 0; ; try++ {
		err := finishDeliveries(ctx, d.db, batch)
		if err == nil {
			return
		}
		if try == 3 || ctx.Err() != nil {
			d.log.Error("recording delivery results failed; the events will be delivered again", "err", err, "count", len(batch))
			return
		}
		time.Sleep(time.Duration(try+1) * 200 * time.Millisecond)
	}
}
