package spending

import (
	"database/sql"
	"errors"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// Times are stored as integer Unix milliseconds on both engines.
func ms(t time.Time) int64 { return kernel.MS(t) }

func fromMS(v int64) time.Time { return kernel.FromMS(v) }

func nullTime(t time.Time) sql.NullInt64 {
	return sql.NullInt64{Int64: kernel.MS(t), Valid: !t.IsZero()}
}

func fromNullMS(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return fromMS(v.Int64)
}

func fromNullableMS(v *int64) *time.Time {
	if v == nil {
		return nil
	}
	t := fromMS(*v)
	return &t
}

func nullString(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
