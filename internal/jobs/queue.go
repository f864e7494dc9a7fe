package jobs

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// NewJob is a background job to run at RunAt. A job with a Key exists at
// most once: enqueueing it again while it exists does nothing, which is how
// a periodic pass keeps one row for every replica.
type NewJob struct {
	Kind      string
	Key       string
	Payload   []byte
	Attempts  int // attempts already made (a first one made inline and failed)
	RunAt     time.Time
	LastError string
}

// Job is a job as a claim hands it out.
type Job struct {
	ID       int64
	Kind     string
	Key      string
	Payload  []byte
	Attempts int // attempts made before this one
}

// Queue is the jobs table: enqueued by the capabilities inside their own
// transactions, claimed and settled by the Runner.
type Queue struct {
	db   *kernel.DB
	wake atomic.Pointer[func()]
}

// NewQueue is the queue of db.
func NewQueue(db *kernel.DB) *Queue { return &Queue{db: db} }

// OnJob sets what runs after every commit that enqueued a job, so the local
// runner need not wait for its next poll. f must not block.
func (q *Queue) OnJob(f func()) { q.wake.Store(&f) }

// jobsOfTx is the key under which a transaction notes that it enqueued.
type jobsOfTx struct{ q *Queue }

// EnqueueIn writes j in the caller's transaction (on PostgreSQL in the round
// trip of COMMIT); the local runner is woken once the transaction commits,
// once however many jobs it enqueued.
func (q *Queue) EnqueueIn(tx *kernel.Tx, j NewJob) {
	tx.AtCommit(kernel.Step{Query: insertJob, Args: jobArgs(j, q.db.Clock().Now())})
	tx.Local(jobsOfTx{q}, func() any {
		tx.AfterCommit(func() {
			if wake := q.wake.Load(); wake != nil {
				(*wake)()
			}
		})
		return true
	})
}

// Enqueue writes j in a transaction of its own.
func (q *Queue) Enqueue(ctx context.Context, j NewJob) error {
	err := q.db.InTx(ctx, func(tx *kernel.Tx) error {
		q.EnqueueIn(tx, j)
		return nil
	})
	if err != nil {
		return fmt.Errorf("jobs: enqueue %s: %w", j.Kind, err)
	}
	return nil
}
