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
	if st := s.readStmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return s.read.QueryRowContext(ctx, s.rebind(query), args...)
}

func (s *Store) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := s.readStmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return s.read.QueryContext(ctx, s.rebind(query), args...)
}

// maxCachedStatements bounds the read-statement cache; the service's SQL is
// static text, so the bound only matters if a query is ever built
// dynamically.
const maxCachedStatements = 512

// readStmt returns a prepared statement for a read on SQLite, where the
// driver would otherwise compile the SQL text again on every call (a third
// of wallet/check's CPU). PostgreSQL's driver caches statements itself, so
// it gets nil there, as it does when preparing fails (the plain call then
// reports the error).
func (s *Store) readStmt(ctx context.Context, query string) *sql.Stmt {
	if s.dialect != SQLite {
		return nil
	}
	if v, ok := s.stmts.Load(query); ok {
		return v.(*sql.Stmt)
	}
	if s.stmtCount.Load() >= maxCachedStatements {
		return nil
	}
	st, err := s.read.PrepareContext(context.WithoutCancel(ctx), s.rebind(query))
	if err != nil {
		return nil
	}
	if v, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return v.(*sql.Stmt)
	}
	s.stmtCount.Add(1)
	return st
}
