package accounts

import (
	"context"
	"database/sql"
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

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("accounts")

// The NULL and no-rows helpers of the kernel, by their short names here.
var (
	fromNullMS = kernel.FromNullMS
	isNoRows   = kernel.IsNoRows
)
