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

func (t *Tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.k.Exec(ctx, query, args...)
}

func (t *Tx) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return t.k.QueryRow(ctx, query, args...)
}

func (t *Tx) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.k.Query(ctx, query, args...)
}

// forUpdate is the row-lock suffix of the engine.
func (t *Tx) forUpdate() string { return t.k.ForUpdate() }

// inTx runs fn in a write transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(*Tx) error) error {
	return s.db.InTx(ctx, func(k *kernel.Tx) error {
		return fn(&Tx{k: k, s: s})
	})
}
