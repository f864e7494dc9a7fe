package wire_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/botpay/botpay/wire"
)

func TestTimestampWritesUTCWithMilliseconds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC), `"2026-11-21T09:30:00.000Z"`},
		{time.Date(2026, 11, 21, 10, 30, 0, 123456789, time.FixedZone("CET", 3600)), `"2026-11-21T09:30:00.123Z"`},
	} {
		got, err := json.Marshal(wire.At(tc.at))
		if err != nil || string(got) != tc.want {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tc.at, got, err, tc.want)
		}
	}
}

func TestTimestampReadsRFC3339AndRefusesOtherValues(t *testing.T) {
	t.Parallel()
	var ts wire.Timestamp
	if err := json.Unmarshal([]byte(`"2026-11-21T09:30:00.5+01:00"`), &ts); err != nil ||
		!ts.Equal(time.Date(2026, 11, 21, 8, 30, 0, 5e8, time.UTC)) {
		t.Fatalf("Unmarshal = %v, %v", ts, err)
	}
	if err := json.Unmarshal([]byte(`null`), &ts); err != nil || ts.IsZero() {
		t.Errorf("null changed the time or failed: %v, %v", ts, err)
	}
	for _, bad := range []string{`1732181400`, `"yesterday"`, `{}`} {
		var v wire.Timestamp
		if err := json.Unmarshal([]byte(bad), &v); err == nil {
			t.Errorf("Unmarshal(%s) accepted %v", bad, v)
		}
	}
}
