package main

import (
	"strings"
	"testing"
)

func TestReportNamesSuitesThatRanAndSkippedWithWhy(t *testing.T) {
	t.Parallel()
	stream := []string{
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"    storetest.go:9: botpay-suite postgresql ran\n"}`,
		`{"Action":"pass","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    chaintest.go:9: botpay-suite chain skipped: node is not installed; run npm ci\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestB"}`,
		`{"Action":"output","Package":"p","Test":"TestC","Output":"--- FAIL: TestC\n    boom\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestC"}`,
		`{"Action":"output","Package":"p","Output":"ok  \tp\t0.1s\n"}`,
	}
	var out strings.Builder
	r := newReport(&out)
	for _, l := range stream {
		r.add([]byte(l))
	}
	got := r.summary()
	want := "suites ran: go, sqlite, postgresql; skipped: chain (node is not installed; run npm ci)\n1 passed, 1 failed, 1 skipped\n"
	if got != want {
		t.Errorf("summary:\n got %q\nwant %q", got, want)
	}
	if !strings.Contains(out.String(), "boom") || !strings.Contains(out.String(), "ok  \tp") {
		t.Errorf("the failed test's output and the package line must print; got %q", out.String())
	}
	if strings.Contains(out.String(), "botpay-suite postgresql") {
		t.Errorf("a passing test's output must not print; got %q", out.String())
	}
}

func TestReportCountsASuiteAsRanWhenAnyTestRanIt(t *testing.T) {
	t.Parallel()
	r := newReport(&strings.Builder{})
	r.add([]byte(`{"Action":"output","Package":"p","Test":"T1","Output":"botpay-suite chain skipped: anvil missing\n"}`))
	r.add([]byte(`{"Action":"output","Package":"p","Test":"T2","Output":"botpay-suite chain ran\n"}`))
	if got := r.summary(); !strings.HasPrefix(got, "suites ran: go, sqlite, chain; none skipped\n") {
		t.Errorf("summary = %q", got)
	}
}

func TestReportSaysWhenNothingWasSkipped(t *testing.T) {
	t.Parallel()
	r := newReport(&strings.Builder{})
	if got := r.summary(); got != "suites ran: go, sqlite; none skipped\n0 passed, 0 failed, 0 skipped\n" {
		t.Errorf("summary = %q", got)
	}
}

func TestWithPackagesAddsTheWholeTreeOnlyWhenNoneIsNamed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{nil, "./..."},
		{[]string{"-race", "-count=1"}, "-race -count=1 ./..."},
		{[]string{"-run", "TestX", "./internal/api"}, "-run TestX ./internal/api"},
	}
	for _, c := range cases {
		if got := strings.Join(withPackages(c.args), " "); got != c.want {
			t.Errorf("withPackages(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}
