package wire

import (
	"fmt"
	"time"
)

// TimeLayout is the one timestamp format of the API: UTC, milliseconds, Z.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Timestamp is a time of the API. It embeds time.Time, so its methods
// (Before, IsZero, Sub) are at hand; on the wire it is UTC with exactly
// three decimals of seconds.
type Timestamp struct{ time.Time }

// At is t as a Timestamp.
func At(t time.Time) Timestamp { return Timestamp{t} }

// MarshalJSON writes the time in TimeLayout.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	return []byte(`"` + t.UTC().Format(TimeLayout) + `"`), nil
}

// UnmarshalJSON reads any RFC 3339 time; JSON null leaves t unchanged.
func (t *Timestamp) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return fmt.Errorf("botpay: a time must be a JSON string, not %.40s", data)
	}
	v, err := time.Parse(time.RFC3339Nano, string(data[1:len(data)-1]))
	if err != nil {
		return fmt.Errorf("botpay: time: %w", err)
	}
	t.Time = v
	return nil
}
