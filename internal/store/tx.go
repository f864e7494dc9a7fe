package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Tx is one database transaction; the small helpers of each aggregate file
// take it so that a use case composes them into one atomic change.
type Tx struct {
	tx      *sql.Tx
	s       *Store
	emitted bool
}

func (t *Tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := t.tx.ExecContext(ctx, t.s.rebind(query), args...)
	return res, classify(err)
}

func (t *Tx) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, t.s.rebind(query), args...)
}

func (t *Tx) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, t.s.rebind(query), args...)
}

// forUpdate is the row-lock suffix: PostgreSQL needs it; SQLite's immediate
// transactions already hold the database write lock.
func (t *Tx) forUpdate() string {
	if t.s.dialect == Postgres {
		return " FOR UPDATE"
	}
	return ""
}

// inTx runs fn in a write transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(*Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	t := &Tx{tx: tx, s: s}
	if err := fn(t); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return classify(fmt.Errorf("commit: %w", err))
	}
	if t.emitted && s.onEvent != nil {
		s.onEvent()
	}
	return nil
}

// queryRow reads outside any transaction, from the read pool.
func (s *Store) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return s.read.QueryRowContext(ctx, s.rebind(query), args...)
}

func (s *Store) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return s.read.QueryContext(ctx, s.rebind(query), args...)
}
