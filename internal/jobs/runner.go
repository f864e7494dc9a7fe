package jobs

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
)

// Defaults of Config and Kind.
const (
	DefaultPoll  = time.Second
	DefaultLease = time.Minute
	batch        = 20
)

// Job is one claimed job, as its kind's handler receives it; the name lets
// a capability package write a handler without naming the store.
type Job = store.Job

// NewJob is a job to enqueue, named here for the same reason.
type NewJob = store.NewJob

// Kind is one kind of job and how it runs.
type Kind struct {
	Name string
	// Run does the job. An error retries it after Retry's wait, unless it
	// wraps Drop or the job has had its Tries.
	Run func(ctx context.Context, j Job) error
	// Every makes the kind periodic: one row, named by the kind, runs every
	// Every whatever the outcome; Tries and Retry do not apply.
	Every time.Duration
	// Tries bounds the attempts of a job in all; 0 is no bound.
	Tries int
	Retry Backoff
	// Lease is how long a claim holds the job (DefaultLease when 0): longer
	// than a run, so a live run is never taken over.
	Lease time.Duration
}

// ErrDrop, wrapped in a handler's error, forgets the job at once: nothing
// will ever make it succeed (a payload sealed with another key).
var ErrDrop = errors.New("job dropped")

// Config assembles a Runner. Zero values take the defaults.
type Config struct {
	Store  *store.Store
	Logger *slog.Logger
	// Poll is how often the table is read when nothing woke the runner
	// (jobs enqueued by other replicas, retries falling due).
	Poll time.Duration
}

// Runner runs the registered kinds' due jobs. Run one per process; any
// number of processes may share a database.
type Runner struct {
	store *store.Store
	clock botpay.Clock
	log   *slog.Logger
	poll  time.Duration
	kinds map[string]Kind
	names []string
	wake  chan struct{}
}

// New builds a Runner.
func New(cfg Config) *Runner {
	r := &Runner{store: cfg.Store, clock: cfg.Store.Clock(), log: cfg.Logger, poll: cfg.Poll,
		kinds: map[string]Kind{}, wake: make(chan struct{}, 1)}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.poll == 0 {
		r.poll = DefaultPoll
	}
	return r
}

// Register adds a kind; call it before Run. A kind registered again
// replaces the first.
func (r *Runner) Register(k Kind) {
	if k.Lease == 0 {
		k.Lease = DefaultLease
	}
	if _, ok := r.kinds[k.Name]; !ok {
		r.names = append(r.names, k.Name)
	}
	r.kinds[k.Name] = k
}

// Wake makes the runner look for due jobs now. It never blocks.
func (r *Runner) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Start hooks the runner to the store's commits, so that a job enqueued in
// this process runs without waiting for the next poll, and runs it in the
// background; stop ends it and waits for the job in flight. Call it before
// serving: the hook is not synchronised with commits.
func (r *Runner) Start(ctx context.Context) (stop func()) {
	r.store.OnJob(r.Wake)
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { r.Run(ctx) })
	return func() { cancel(); wg.Wait() }
}

// Run runs due jobs until ctx ends.
func (r *Runner) Run(ctx context.Context) {
	r.schedulePeriodic(ctx)
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		r.RunDue(ctx)
		t.Reset(r.poll)
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-t.C:
		}
	}
}

// schedulePeriodic makes sure every periodic kind has its row, due now
// when it is new.
func (r *Runner) schedulePeriodic(ctx context.Context) {
	for _, name := range r.names {
		if r.kinds[name].Every == 0 {
			continue
		}
		err := r.store.EnqueueJob(ctx, store.NewJob{Kind: name, Key: name, RunAt: r.clock.Now()})
		if err != nil && ctx.Err() == nil {
			r.log.WarnContext(ctx, "scheduling a periodic job failed", "kind", name, "err", err)
		}
	}
}

// RunDue runs every due job of the given kinds (every registered kind when
// none is given) once, batch after batch until a claim comes back short.
func (r *Runner) RunDue(ctx context.Context, kinds ...string) {
	if len(kinds) == 0 {
		kinds = r.names
	}
	lease := time.Duration(0)
	for _, name := range kinds {
		lease = max(lease, r.kinds[name].Lease)
	}
	for ctx.Err() == nil {
		due, err := r.store.ClaimJobs(ctx, kinds, batch, lease)
		if err != nil {
			if ctx.Err() == nil {
				r.log.WarnContext(ctx, "claiming jobs failed", "err", err)
			}
			return
		}
		for _, j := range due {
			r.runOne(ctx, j)
		}
		if len(due) < batch {
			return
		}
	}
}

// runOne runs one claimed job and records its outcome.
func (r *Runner) runOne(ctx context.Context, j store.Job) {
	k, ok := r.kinds[j.Kind]
	if !ok {
		return // claimed by name only: cannot happen
	}
	err := k.Run(ctx, j)
	if ctx.Err() != nil && err != nil {
		return // stopped mid-run: the lease hands it to the next claim
	}
	ctx = context.WithoutCancel(ctx)
	var rec error
	switch {
	case k.Every > 0:
		var text string
		if err != nil {
			text = err.Error()
			r.log.WarnContext(ctx, "periodic job failed", "kind", j.Kind, "err", err)
		}
		rec = r.store.RescheduleJob(ctx, j.ID, r.clock.Now().Add(k.Every), text)
	case err == nil:
		rec = r.store.FinishJob(ctx, j.ID)
	case errors.Is(err, ErrDrop) || (k.Tries > 0 && j.Attempts+1 >= k.Tries):
		r.log.ErrorContext(ctx, "job failed for good; dropped", "kind", j.Kind, "attempts", j.Attempts+1, "err", err)
		rec = r.store.FinishJob(ctx, j.ID)
	default:
		rec = r.store.RetryJob(ctx, j.ID, r.clock.Now().Add(k.Retry.Wait(j.Attempts+1)), err.Error())
	}
	if rec != nil {
		// Done but still kept: the job runs again after its lease, which
		// beats never.
		r.log.WarnContext(ctx, "recording a job's outcome failed", "kind", j.Kind, "id", j.ID, "err", rec)
	}
}
