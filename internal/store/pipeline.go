package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// step is one statement of a pipeline: statements whose arguments do not
// depend on one another's results travel to PostgreSQL together (one round
// trip, with BEGIN or COMMIT when they open or close the transaction) and
// run one after another, each with its own snapshot, so a read that follows
// a row lock sees what the previous lock holder committed. On SQLite they
// simply run in order.
type step struct {
	query string
	args  []any
	// dest receives the one row of a single-row read; with found nil a
	// missing row fails the pipeline with sql.ErrNoRows, otherwise *found
	// says whether there was one.
	dest  []any
	found *bool
	// each reads every row of a many-row read.
	each func(scanner) error
}

// pipeline runs steps inside the transaction (on PostgreSQL in one round
// trip, carrying BEGIN when nothing was sent yet).
func (t *Tx) pipeline(ctx context.Context, steps ...step) error {
	if t.conn == nil {
		return t.runSteps(ctx, steps)
	}
	if t.broken != nil {
		return t.broken
	}
	return classify(t.sendBatch(ctx, steps, false))
}

// runSteps runs steps one at a time through the ordinary statement path.
func (t *Tx) runSteps(ctx context.Context, steps []step) error {
	for _, s := range steps {
		var err error
		switch {
		case s.each != nil:
			err = t.eachRow(ctx, s)
		case s.dest != nil:
			err = s.scanned(t.queryRow(ctx, s.query, s.args...).Scan(s.dest...))
		default:
			_, err = t.exec(ctx, s.query, s.args...)
		}
		if err != nil {
			return classify(err)
		}
	}
	return nil
}

func (t *Tx) eachRow(ctx context.Context, s step) error {
	rows, err := t.query(ctx, s.query, s.args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := s.each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// scanned applies found to the result of scanning a single-row read.
func (s step) scanned(err error) error {
	if s.found == nil {
		return err
	}
	*s.found = err == nil
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
func (t *Tx) sendBatch(ctx context.Context, steps []step, commit bool) error {
	return t.conn.Raw(func(dc any) error {
		c := dc.(*stdlib.Conn).Conn()
		var b pgx.Batch
		opened := !t.begun
		if opened {
			b.Queue("BEGIN")
		}
		for _, s := range steps {
			b.Queue(t.s.rebind(s.query), s.args...)
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

func (t *Tx) readBatch(br pgx.BatchResults, opened bool, steps []step, commit bool) error {
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

func readStep(br pgx.BatchResults, s step) error {
	switch {
	case s.each != nil:
		rows, err := br.Query()
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := s.each(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	case s.dest != nil:
		return s.scanned(br.QueryRow().Scan(s.dest...))
	default:
		_, err := br.Exec()
		return err
	}
}
