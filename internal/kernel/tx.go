package kernel

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

// Tx is one write transaction; the SQL helpers of each capability take it
// so that a use case composes them into one atomic change.
//
// On PostgreSQL the transaction is driven by hand on one connection so that
// BEGIN travels with the first statements and COMMIT with the last (see
// pipeline.go): every round trip to the server costs more than the
// statement it carries on a small machine.
type Tx struct {
	tx runner
	db *DB
	// locals are the values of Local.
	locals map[any]any
	// after runs once the transaction has committed, in order.
	after []func()

	sqlTx  *sql.Tx   // SQLite only
	missed []string  // SQLite: statements run unprepared (see writeStmt)
	conn   *sql.Conn // PostgreSQL only
	begun  bool      // PostgreSQL: BEGIN has been sent
	broken error     // PostgreSQL: BEGIN failed; every later statement fails
	final  []Step    // statements that run just before COMMIT, in order
}

// Exec runs a statement that returns no rows.
func (t *Tx) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := t.begin(ctx); err != nil {
		return nil, err
	}
	if st := t.writeStmt(ctx, query); st != nil {
		res, err := st.ExecContext(ctx, args...)
		return res, t.db.classify(err)
	}
	res, err := t.tx.ExecContext(ctx, t.db.Rebind(query), args...)
	return res, t.db.classify(err)
}

// QueryRow runs a single-row read.
func (t *Tx) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if err := t.begin(ctx); err != nil {
		return t.failedRow(ctx)
	}
	if st := t.writeStmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, t.db.Rebind(query), args...)
}

// Query runs a many-row read.
func (t *Tx) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := t.begin(ctx); err != nil {
		return nil, err
	}
	if st := t.writeStmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, t.db.Rebind(query), args...)
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

// AtCommit queues a statement to run just before COMMIT (on PostgreSQL in
// the same round trip). Its results, if any, are scanned by the time InTx
// returns; nothing in the transaction may depend on them.
func (t *Tx) AtCommit(s Step) { t.final = append(t.final, s) }

// AfterCommit runs fn once the transaction has committed (never when it
// rolls back): wake-ups of what waits for its rows.
func (t *Tx) AfterCommit(fn func()) { t.after = append(t.after, fn) }

// Driver is the engine's driver, for the SQL fragments that differ.
func (t *Tx) Driver() Driver { return t.db.driver }

// ForUpdate is the row-lock suffix of the engine (Driver.ForUpdate).
func (t *Tx) ForUpdate() string { return t.db.driver.ForUpdate() }

// InTx runs fn in a write transaction, committing when it returns nil.
func (db *DB) InTx(ctx context.Context, fn func(*Tx) error) error {
	return db.driver.run(ctx, db, fn)
}

func (s *DB) inSQLTx(ctx context.Context, fn func(*Tx) error) error {
	if err := s.gate.enter(ctx); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer s.gate.leave()
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	t := &Tx{tx: tx, sqlTx: tx, db: s}
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
		return s.classify(fmt.Errorf("commit: %w", err))
	}
	s.committed(t)
	return nil
}

// inConnTx is inTx on PostgreSQL: BEGIN, statements and COMMIT sent by hand
// on one pooled connection. A connection is never handed back inside a
// transaction: a failed ROLLBACK discards it, and the pool's session reset
// (openPostgres) refuses any connection that is not idle.
func (s *DB) inConnTx(ctx context.Context, fn func(*Tx) error) error {
	if err := s.gate.enter(ctx); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer s.gate.leave()
	conn, err := s.write.Conn(ctx)
	if err != nil {
		return beforeCommit(fmt.Errorf("begin: %w", err))
	}
	defer conn.Close()
	t := &Tx{tx: conn, conn: conn, db: s}
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
		return atCommitFailure(s.classify(err))
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

// committed runs the transaction's after-commit functions.
func (s *DB) committed(t *Tx) {
	for _, fn := range t.after {
		fn()
	}
}

// errRolledBack reports a COMMIT that the server turned into a rollback
// (the transaction had failed).
var errRolledBack = errors.New("commit: the transaction was rolled back")

// Local is the transaction's value under key, made by init on first use:
// what the helpers of one transaction share (the events it wrote, say)
// without the caller threading it through.
func (t *Tx) Local(key any, init func() any) any {
	if v, ok := t.locals[key]; ok {
		return v
	}
	if t.locals == nil {
		t.locals = map[any]any{}
	}
	v := init()
	t.locals[key] = v
	return v
}
