package accounts

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// inTx runs fn in a write transaction, committing when it returns nil.
func (s *Service) inTx(ctx context.Context, fn func(*kernel.Tx) error) error {
	return s.db.InTx(ctx, fn)
}

// queryRow reads outside any transaction, from the read pool.
func (s *Service) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return s.db.QueryRow(ctx, query, args...)
}

func ms(t time.Time) int64 { return kernel.MS(t) }

func fromMS(v int64) time.Time { return kernel.FromMS(v) }

func fromNullMS(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return fromMS(v.Int64)
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("accounts")
