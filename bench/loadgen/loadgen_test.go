package main

import (
	"testing"
	"time"
)

func TestLoopbackURL(t *testing.T) {
	for _, ok := range []string{"http://127.0.0.1:8080", "http://127.1.2.3", "http://[::1]:9000/", "http://localhost:8080", "https://LOCALHOST"} {
		if _, err := loopbackURL(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://10.0.0.1:8080", "http://example.com", "http://localhost.example.com",
		"http://[::ffff:8.8.8.8]", "ftp://127.0.0.1", "http://0.0.0.0:8080", "127.0.0.1:8080"} {
		if _, err := loopbackURL(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestRefuseNonLoopback(t *testing.T) {
	if err := refuseNonLoopback("tcp", "127.0.0.1:80", nil); err != nil {
		t.Error(err)
	}
	if err := refuseNonLoopback("tcp", "192.0.2.1:80", nil); err == nil {
		t.Error("dial to 192.0.2.1 allowed")
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	l := latencyOf(d)
	if l.P50 != 50 || l.P90 != 90 || l.P99 != 99 || l.Max != 100 || l.Min != 1 {
		t.Errorf("latency summary %+v", l)
	}
}

func TestSummarizeCountsFailures(t *testing.T) {
	a, b := newTally(), newTally()
	a.statuses[200], a.statuses[429] = 3, 1
	b.statuses[201], b.errs["timeout"] = 2, 1
	a.latencies = []time.Duration{time.Millisecond}
	r := summarize([]*tally{a, b}, time.Second)
	if r.Requests != 7 || r.Success != 5 || r.Failed != 2 || r.RPS != 7 {
		t.Errorf("summary %+v", r)
	}
}

func TestValidateRequiresBound(t *testing.T) {
	o := options{url: "http://127.0.0.1:8080", scenario: "wallet-check", concurrency: 1, timeout: time.Second}
	if err := o.validate(); err == nil {
		t.Error("unbounded run accepted")
	}
	o.requests = 10
	if err := o.validate(); err != nil {
		t.Error(err)
	}
}
