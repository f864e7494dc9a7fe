package wire_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/botpay/botpay/wire"
)

func TestUSDUnmarshalParsesDollarNumbersExactly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		json string
		want wire.USD
	}{
		{"0", 0},
		{"12.50", 1250},
		{"12.5", 1250},
		{"2.01", 201}, // float64 would give 200.99999… cents
		{"0.29", 29},
		{"1.1", 110},
		{"-3.75", -375},
		{"2.005", 201},   // half rounds away from zero
		{"-2.005", -201}, // on both sides
		{"2.0049999", 200},
		{"0.004", 0},
		{"0.005", 1},
		{"1e2", 10000},
		{"1.5E+1", 1500},
		{"125e-2", 125},
		{"0e999999999", 0},
		{"1e-999999999", 0},
		{"0.001e-500", 0},
		{"-0", 0},
		{"92233720368547758.07", math.MaxInt64},
		{"-92233720368547758.07", -math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.json, func(t *testing.T) {
			var got wire.USD
			if err := json.Unmarshal([]byte(tt.json), &got); err != nil {
				t.Fatalf("Unmarshal(%s): %v", tt.json, err)
			}
			if got != tt.want {
				t.Errorf("Unmarshal(%s) = %d cents, want %d", tt.json, got, tt.want)
			}
		})
	}
}

func TestUSDUnmarshalRejectsWhatIsNotAnAmount(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`"12.50"`, // a string, not a number
		`true`,
		`{}`,
		`92233720368547758.08`, // one cent past int64
		`1e999999999`,
		`1e421`,
	} {
		var got wire.USD
		if err := json.Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("Unmarshal(%s) = %d, want an error", in, got)
		}
	}
}

func TestParseUSDAcceptsOnlyJSONNumberText(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "1/2", "0x10", "1_000", "+1", ".5", "5.", "01", " 1", "NaN", "Inf", strings.Repeat("1", 401)} {
		if got, err := wire.ParseUSD(in); err == nil {
			t.Errorf("ParseUSD(%q) = %d, want an error", in, got)
		}
	}
}

func TestUSDUnmarshalNullKeepsValue(t *testing.T) {
	t.Parallel()
	got := wire.USD(42)
	if err := json.Unmarshal([]byte("null"), &got); err != nil || got != 42 {
		t.Fatalf("Unmarshal(null) = %d, %v; want 42 unchanged", got, err)
	}
	var p *wire.USD
	if err := json.Unmarshal([]byte("null"), &p); err != nil || p != nil {
		t.Fatalf("Unmarshal(null) into *USD = %v, %v; want nil", p, err)
	}
}

func TestUSDMarshalWritesTwoDecimals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   wire.USD
		want string
	}{
		{0, "0.00"},
		{5, "0.05"},
		{1250, "12.50"},
		{-5, "-0.05"},
		{-1250, "-12.50"},
		{wire.Dollars(1000000, 1), "1000000.01"},
		{math.MinInt64, "-92233720368547758.08"},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.in)
		if err != nil || string(got) != tt.want {
			t.Errorf("Marshal(%d) = %s, %v; want %s", int64(tt.in), got, err, tt.want)
		}
		if tt.in.String() != tt.want {
			t.Errorf("String(%d) = %s, want %s", int64(tt.in), tt.in.String(), tt.want)
		}
	}
}

func TestUSDRoundTripsThroughJSON(t *testing.T) {
	t.Parallel()
	for _, v := range []wire.USD{0, 1, 99, 100, 201, -201, 123456789, math.MaxInt64} {
		data, _ := json.Marshal(v)
		var back wire.USD
		if err := json.Unmarshal(data, &back); err != nil || back != v {
			t.Errorf("%d → %s → %d, %v", int64(v), data, back, err)
		}
	}
}
