package spending

import (
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// Times are stored as integer Unix milliseconds on both engines.
func ms(t time.Time) int64 { return kernel.MS(t) }

func fromMS(v int64) time.Time { return kernel.FromMS(v) }

func fromNullableMS(v *int64) *time.Time {
	if v == nil {
		return nil
	}
	t := fromMS(*v)
	return &t
}

// The NULL and no-rows helpers of the kernel, by their short names here.
var (
	nullTime   = kernel.NullMS
	fromNullMS = kernel.FromNullMS
	nullString = kernel.NullString
	isNoRows   = kernel.IsNoRows
)
