package store

import (
	"context"
	"database/sql"

	"github.com/botpay/botpay/internal/kernel"
)

// Tx is one write transaction of the kernel; the small helpers of each
// aggregate file take it so that a use case composes them into one atomic
// change.
type Tx struct {
	k *kernel.Tx
	s *Store
}

// step is one statement of a kernel pipeline.
type step = kernel.Step

func (t *Tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.k.Exec(ctx, query, args...)
}

func (t *Tx) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return t.k.QueryRow(ctx, query, args...)
}

func (t *Tx) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.k.Query(ctx, query, args...)
}

func (t *Tx) pipeline(ctx context.Context, steps ...step) error { return t.k.Pipeline(ctx, steps...) }

func (t *Tx) atCommit(s step) { t.k.AtCommit(s) }

func (t *Tx) eachRow(ctx context.Context, s step) error { return t.k.EachRow(ctx, s) }

// forUpdate is the row-lock suffix of the engine.
func (t *Tx) forUpdate() string { return t.k.ForUpdate() }

// inTx runs fn in a write transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(*Tx) error) error {
	return s.db.InTx(ctx, func(k *kernel.Tx) error {
		return fn(&Tx{k: k, s: s})
	})
}
