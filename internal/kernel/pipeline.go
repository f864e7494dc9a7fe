package kernel

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Step is one statement of a pipeline: statements whose arguments do not
// depend on one another's results travel to PostgreSQL together (one round
// trip, with BEGIN or COMMIT when they open or close the transaction) and
// run one after another, each with its own snapshot, so a read that follows
// a row lock sees what the previous lock holder committed. On SQLite they
// simply run in order.
type Step struct {
	Query string
	Args  []any
	// Dest receives the one row of a single-row read; with Found nil a
	// missing row fails the pipeline with sql.ErrNoRows, otherwise *Found
	// says whether there was one.
	Dest  []any
	Found *bool
	// Each reads every row of a many-row read.
	Each func(Scanner) error
}

// Scanner is a row being read: *sql.Row, *sql.Rows or pgx's rows.
type Scanner = interface{ Scan(dest ...any) error }

// Pipeline runs steps inside the transaction (on PostgreSQL in one round
// trip, carrying BEGIN when nothing was sent yet).
func (t *Tx) Pipeline(ctx context.Context, steps ...Step) error {
	if t.conn == nil {
		return t.runSteps(ctx, steps)
	}
	if t.broken != nil {
		return t.broken
	}
	return t.db.classify(t.sendBatch(ctx, steps, false))
}

// runSteps runs steps one at a time through the ordinary statement path.
func (t *Tx) runSteps(ctx context.Context, steps []Step) error {
	for _, s := range steps {
		var err error
		switch {
		case s.Each != nil:
			err = t.EachRow(ctx, s)
		case s.Dest != nil:
			err = s.scanned(t.QueryRow(ctx, s.Query, s.Args...).Scan(s.Dest...))
		default:
			_, err = t.Exec(ctx, s.Query, s.Args...)
		}
		if err != nil {
			return t.db.classify(err)
		}
	}
	return nil
}

// EachRow runs the many-row read s statement by statement (not in a
// pipeline), calling s.Each for every row.
func (t *Tx) EachRow(ctx context.Context, s Step) error {
	rows, err := t.Query(ctx, s.Query, s.Args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := s.Each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// scanned applies found to the result of scanning a single-row read.
func (s Step) scanned(err error) error {
	if s.Found == nil {
		return err
	}
	*s.Found = err == nil
	if errors.Is(err, sql.ErrNoRows) { // pgx.ErrNoRows is sql.ErrNoRows too
		return nil
	}
	return err
}

// errBadConn makes database/sql discard a connection.
var errBadConn = driver.ErrBadConn

// sendBatch sends steps (after BEGIN when the transaction has not begun,
// followed by COMMIT when commit is set) in one round trip on the
// transaction's connection, and reads their results in order.
func (t *Tx) sendBatch(ctx context.Context, steps []Step, commit bool) error {
	return t.conn.Raw(func(dc any) error {
		c := dc.(*stdlib.Conn).Conn()
		var b pgx.Batch
		opened := !t.begun
		if opened {
			b.Queue("BEGIN")
		}
		for _, s := range steps {
			b.Queue(t.db.Rebind(s.Query), s.Args...)
		}
		if commit {
			b.Queue("COMMIT")
		}
		br := c.SendBatch(ctx, &b)
		err := t.readBatch(br, opened, steps, commit)
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

func (t *Tx) readBatch(br pgx.BatchResults, opened bool, steps []Step, commit bool) error {
	if opened {
		// An error here may be BEGIN's or, as pgx prepares every new
		// statement of the batch first, any statement's.
		if _, err := br.Exec(); err != nil {
			return err
		}
		t.begun = true
	}
	for _, s := range steps {
		if err := readStep(br, s); err != nil {
			return err
		}
	}
	if !commit {
		return nil
	}
	tag, err := br.Exec()
	if err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	if tag.String() != "COMMIT" {
		return errRolledBack
	}
	t.begun = false // the transaction is over
	return nil
}

func readStep(br pgx.BatchResults, s Step) error {
	switch {
	case s.Each != nil:
		rows, err := br.Query()
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := s.Each(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	case s.Dest != nil:
		return s.scanned(br.QueryRow().Scan(s.Dest...))
	default:
		_, err := br.Exec()
		return err
	}
}
