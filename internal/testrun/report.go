package main

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// report follows a `go test -json` stream: it prints what plain `go test`
// would (the package lines, and the output of failed tests), counts the
// tests and collects the suite lines of internal/suite.
type report struct {
	out                     io.Writer
	passed, failed, skipped int
	testOutput              map[string]*strings.Builder // package + test → its output so far
	suites                  map[string]suiteState
	failedPackages          []string
}

type suiteState struct {
	ran     bool
	skipped string // why, when no test of the suite ran
}

func newReport(out io.Writer) *report {
	return &report{out: out, testOutput: map[string]*strings.Builder{}, suites: map[string]suiteState{}}
}

// suiteLine matches what internal/suite prints (the Marker, a name, a verdict).
var suiteLine = regexp.MustCompile(`botpay-suite (\S+) (ran|skipped: (.*)|failed: (.*))`)

// add reads one line of the stream; lines that are not JSON (a build error)
// print as they are.
func (r *report) add(line []byte) {
	var e event
	if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
		fmt.Fprintln(r.out, string(line))
		return
	}
	if e.Output != "" {
		r.noteSuite(e.Output)
	}
	if e.Test == "" || e.Action == "build-output" {
		r.packageEvent(e)
		return
	}
	r.testEvent(e)
}

func (r *report) packageEvent(e event) {
	switch e.Action {
	case "build-output":
		fmt.Fprint(r.out, e.Output)
	case "output":
		if o := strings.TrimSpace(e.Output); o != "PASS" && o != "FAIL" && !strings.HasPrefix(o, "=== ") {
			fmt.Fprint(r.out, e.Output)
		}
	case "fail":
		r.failedPackages = append(r.failedPackages, e.Package)
	}
}

func (r *report) testEvent(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "output":
		b := r.testOutput[key]
		if b == nil {
			b = &strings.Builder{}
			r.testOutput[key] = b
		}
		b.WriteString(e.Output)
	case "pass":
		r.passed++
		delete(r.testOutput, key)
	case "skip":
		r.skipped++
		delete(r.testOutput, key)
	case "fail":
		r.failed++
		if b := r.testOutput[key]; b != nil {
			fmt.Fprint(r.out, b.String())
		}
		delete(r.testOutput, key)
	}
}

func (r *report) noteSuite(output string) {
	m := suiteLine.FindStringSubmatch(output)
	if m == nil {
		return
	}
	s := r.suites[m[1]]
	switch {
	case m[2] == "ran":
		s.ran = true
	case m[3] != "" && s.skipped == "":
		s.skipped = strings.TrimSpace(m[3])
	case m[4] != "":
		s.skipped = "FAILED: " + strings.TrimSpace(m[4])
	}
	r.suites[m[1]] = s
}

// summary is the closing: one line of suites that ran and were skipped
// (with why), then the counts in the plain form test tools read.
func (r *report) summary() string {
	var ran, skipped []string
	names := make([]string, 0, len(r.suites))
	for n := range r.suites {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if s := r.suites[n]; s.ran && !strings.HasPrefix(s.skipped, "FAILED") {
			ran = append(ran, n)
		} else {
			skipped = append(skipped, n+" ("+s.skipped+")")
		}
	}
	line := "suites ran: go, sqlite"
	if len(ran) > 0 {
		line += ", " + strings.Join(ran, ", ")
	}
	if len(skipped) > 0 {
		line += "; skipped: " + strings.Join(skipped, "; ")
	} else {
		line += "; none skipped"
	}
	return fmt.Sprintf("%s\n%d passed, %d failed, %d skipped\n", line, r.passed, r.failed, r.skipped)
}
