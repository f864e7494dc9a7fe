package kernel

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/botpay/botpay/internal/botpay"
)

// brokenConn reports whether err is the connection failing rather than the
// server refusing a statement: a network error, a connection the driver
// gave up on, a connection closed under a read, or SQLSTATE class 08 or 57P (an administrator or crash
// shutdown, a server still starting).
func brokenConn(err error) bool {
	var netErr net.Error
	var pgErr *pgconn.PgError
	switch {
	case errors.Is(err, driver.ErrBadConn), errors.As(err, &netErr), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return true
	case errors.As(err, &pgErr):
		return strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P")
	}
	return false
}

// inConnTxRetried is inConnTx tried once more on a fresh connection when
// the first connection broke before COMMIT was sent: such a transaction
// provably did not commit (the server rolls back a transaction whose
// connection ends), so running it again cannot apply it twice. A break
// after COMMIT was sent is ErrCommitUnknown and is never retried.
func (s *DB) inConnTxRetried(ctx context.Context, fn func(*Tx) error) error {
	err := s.inConnTx(ctx, fn)
	var uncommitted *notCommittedError
	if errors.As(err, &uncommitted) && ctx.Err() == nil {
		err = s.inConnTx(ctx, fn)
	}
	if errors.As(err, &uncommitted) {
		return uncommitted.err
	}
	return err
}

// notCommittedError carries a broken-connection failure that happened
// before COMMIT was sent.
type notCommittedError struct{ err error }

func (e *notCommittedError) Error() string { return e.err.Error() }
func (e *notCommittedError) Unwrap() error { return e.err }

// beforeCommit classifies a failure of the transaction's statements.
func beforeCommit(err error) error {
	if err != nil && brokenConn(err) {
		return &notCommittedError{err: err}
	}
	return err
}

// atCommitFailure classifies a failure of the batch that carried COMMIT:
// pgconn knows when nothing of it reached the server.
func atCommitFailure(err error) error {
	switch {
	case err == nil || !brokenConn(err):
		return err
	case pgconn.SafeToRetry(err):
		return &notCommittedError{err: err}
	default:
		return errors.Join(botpay.ErrOutcomeUnknown, err)
	}
}
