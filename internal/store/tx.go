package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// runner is what a transaction's statements run on: the *sql.Tx on SQLite,
// the connection itself on PostgreSQL (see inTx).
type runner interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Tx is one database transaction; the small helpers of each aggregate file
// take it so that a use case composes them into one atomic change.
//
// On PostgreSQL the transaction is driven by hand on one connection so that
// BEGIN travels with the first statements and COMMIT with the last (see
// pipeline.go): every round trip to the server costs more than the
// statement it carries on a small machine.
type Tx struct {
	tx runner
	s  *Store
	// staged says, per event written, whether it was staged at once as a
	// pending message (known once its statement has run).
	staged []func() bool
	// jobs says a job was enqueued (the runner is woken after commit).
	jobs bool

	sqlTx  *sql.Tx   // SQLite only
	missed []string  // SQLite: statements run unprepared (see writeStmt)
	conn   *sql.Conn // PostgreSQL only
	begun  bool      // PostgreSQL: BEGIN has been sent
	broken error     // PostgreSQL: BEGIN failed; every later statement fails
	final  []step    // statements that run just before COMMIT, in order
}

func (t *Tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := t.begin(ctx); err != nil {
		return nil, err
	}
	if st := t.writeStmt(ctx, query); st != nil {
		res, err := st.ExecContext(ctx, args...)
		return res, classify(err)
	}
	res, err := t.tx.ExecContext(ctx, t.s.rebind(query), args...)
	return res, classify(err)
}

func (t *Tx) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if err := t.begin(ctx); err != nil {
		return t.failedRow(ctx)
	}
	if st := t.writeStmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, t.s.rebind(query), args...)
}

func (t *Tx) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := t.begin(ctx); err != nil {
		return nil, err
	}
	if st := t.writeStmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, t.s.rebind(query), args...)
}

// execScript runs SQL text of several statements (a migration).
func (t *Tx) execScript(ctx context.Context, script string) error {
	if err := t.begin(ctx); err != nil {
		return err
	}
	_, err := t.tx.ExecContext(ctx, script)
	return err
}

// begin sends BEGIN on PostgreSQL before the first statement that does not
// carry it in a pipeline.
func (t *Tx) begin(ctx context.Context) error {
	if t.conn == nil || t.begun || t.broken != nil {
		return t.broken
	}
	if _, err := t.conn.ExecContext(ctx, "BEGIN"); err != nil {
		t.broken = fmt.Errorf("begin: %w", err)
		return t.broken
	}
	t.begun = true
	return nil
}

// failedRow is a *sql.Row that fails to scan, for queryRow after a failed
// BEGIN: the statement must not run outside the transaction. inTx reports
// the BEGIN error itself.
func (t *Tx) failedRow(ctx context.Context) *sql.Row {
	dead, cancel := context.WithCancel(ctx)
	cancel()
	return t.conn.QueryRowContext(dead, "SELECT 1")
}

// atCommit queues a statement to run just before COMMIT (on PostgreSQL in
// the same round trip). Its results, if any, are scanned by the time inTx
// returns; nothing in the transaction may depend on them.
func (t *Tx) atCommit(s step) { t.final = append(t.final, s) }

// forUpdate is the row-lock suffix (dialect.forUpdate).
func (t *Tx) forUpdate() string { return t.s.dialect.forUpdate }

// inTx runs fn in a write transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(*Tx) error) error {
	if s.dialect.handDrivenTx {
		return s.inConnTxRetried(ctx, fn)
	}
	return s.inSQLTx(ctx, fn)
}

func (s *Store) inSQLTx(ctx context.Context, fn func(*Tx) error) error {
	if err := s.gate.enter(ctx); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer s.gate.leave()
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	t := &Tx{tx: tx, sqlTx: tx, s: s}
	defer s.prepareMissed(ctx, t) // after the transaction: it holds the only connection
	if err := fn(t); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := t.runSteps(ctx, t.final); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return classify(fmt.Errorf("commit: %w", err))
	}
	s.committed(t)
	return nil
}

// inConnTx is inTx on PostgreSQL: BEGIN, statements and COMMIT sent by hand
// on one pooled connection. A connection is never handed back inside a
// transaction: a failed ROLLBACK discards it, and the pool's session reset
// (openPostgres) refuses any connection that is not idle.
func (s *Store) inConnTx(ctx context.Context, fn func(*Tx) error) error {
	if err := s.gate.enter(ctx); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer s.gate.leave()
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return beforeCommit(fmt.Errorf("begin: %w", err))
	}
	defer conn.Close()
	t := &Tx{tx: conn, conn: conn, s: s}
	if err := fn(t); err != nil {
		t.rollback(ctx)
		if t.broken != nil {
			return beforeCommit(t.broken)
		}
		return beforeCommit(err)
	}
	if !t.begun && len(t.final) == 0 {
		return beforeCommit(t.broken) // nothing was sent: nothing to commit
	}
	if err := t.sendBatch(ctx, t.final, true); err != nil {
		t.rollback(ctx)
		return atCommitFailure(classify(err))
	}
	s.committed(t)
	return nil
}

// rollback ends a failed transaction; when even that fails the connection
// is closed instead of going back to the pool.
func (t *Tx) rollback(ctx context.Context) {
	if !t.begun {
		return
	}
	if _, err := t.conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); err != nil {
		_ = t.conn.Raw(func(any) error { return errBadConn })
	}
}

// committed runs after a commit: wakes the local dispatcher when events
// were written that it has to deliver (not those staged at once), and the
// local job runner when jobs were enqueued.
func (s *Store) committed(t *Tx) {
	if t.jobs && s.onJob != nil {
		s.onJob()
	}
	if s.onEvent == nil {
		return
	}
	for _, staged := range t.staged {
		if !staged() {
			s.onEvent()
			return
		}
	}
}

// errRolledBack reports a COMMIT that the server turned into a rollback
// (the transaction had failed).
var errRolledBack = errors.New("commit: the transaction was rolled back")

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
