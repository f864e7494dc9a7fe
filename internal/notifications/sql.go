package notifications

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// Times are stored as integer Unix milliseconds on both engines.
func ms(t time.Time) int64 { return kernel.MS(t) }

func fromMS(v int64) time.Time { return kernel.FromMS(v) }

func nullString(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// wrapErr adds context to an error of the package's boundary; a domain
// error (*botpay.Error) stays as it is: its message is the answer.
func wrapErr(err error, format string, args ...any) error {
	if _, domain := err.(*botpay.Error); err == nil || domain {
		return err
	}
	return fmt.Errorf("notifications: "+format+": %w", append(args, err)...)
}

// placeholders renders "$from, $from+1, …" for n values.
func placeholders(from, n int) string {
	b := make([]byte, 0, n*5)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, '$')
		b = strconv.AppendInt(b, int64(from+i), 10)
	}
	return string(b)
}
