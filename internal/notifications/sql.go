package notifications

import (
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// Times are stored as integer Unix milliseconds on both engines.
func ms(t time.Time) int64 { return kernel.MS(t) }

func fromMS(v int64) time.Time { return kernel.FromMS(v) }

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("notifications")

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

// The NULL and no-rows helpers of the kernel, by their short names here.
var (
	nullString = kernel.NullString
	isNoRows   = kernel.IsNoRows
)
