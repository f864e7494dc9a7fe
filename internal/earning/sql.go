package earning

import (
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// Times are stored as integer Unix milliseconds on both engines.
func ms(t time.Time) int64 { return kernel.MS(t) }

func fromMS(v int64) time.Time { return kernel.FromMS(v) }

// The NULL and no-rows helpers of the kernel, by their short names here.
var (
	nullMS     = kernel.NullMS
	fromNullMS = kernel.FromNullMS
	nullString = kernel.NullString
	isNoRows   = kernel.IsNoRows
)
