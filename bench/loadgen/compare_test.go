package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The comparison takes the median of each side over rounds and calls a
// path a miss when any of throughput, p50 or p99 breaks its goal.
func TestComparisonJudgesMediansAgainstTheGoals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		empty       []Result
		full        []Result
		wantVerdict string
	}{
		{"within every goal", []Result{sample(1000, 1, 10)}, []Result{sample(900, 1.2, 12)}, "meets"},
		{"throughput below two thirds", []Result{sample(1000, 1, 10)}, []Result{sample(600, 1, 10)}, "**misses**"},
		{"p50 over 1.5x", []Result{sample(1000, 1, 10)}, []Result{sample(1000, 1.6, 10)}, "**misses**"},
		{"p99 over 1.5x", []Result{sample(1000, 1, 10)}, []Result{sample(1000, 1, 16)}, "**misses**"},
		{"one slow round of three is outvoted", []Result{sample(1000, 1, 10), sample(1000, 1, 10), sample(1000, 1, 10)},
			[]Result{sample(1000, 1, 10), sample(300, 5, 90), sample(1000, 1, 11)}, "meets"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := writeResults(t, "postgres (empty)", tc.empty)
			files = append(files, writeResults(t, "postgres (full: 1M bots)", tc.full)...)
			var out bytes.Buffer
			if err := printComparison(&out, files); err != nil {
				t.Fatal(err)
			}
			rows := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(rows) != 3 || !strings.HasPrefix(rows[2], "| postgres | wallet-check | 8 |") ||
				!strings.HasSuffix(rows[2], "| "+tc.wantVerdict+" |") {
				t.Errorf("comparison:\n%s\nwant one postgres row ending %q", out.String(), tc.wantVerdict)
			}
		})
	}
}

func TestComparisonNeedsBothSides(t *testing.T) {
	t.Parallel()
	files := writeResults(t, "sqlite (empty)", []Result{sample(1000, 1, 10)})
	if err := printComparison(new(bytes.Buffer), files); err == nil {
		t.Error("a comparison without full-database results was printed")
	}
	files = writeResults(t, "sqlite (before)", []Result{sample(1000, 1, 10)})
	if err := printComparison(new(bytes.Buffer), files); err == nil {
		t.Error("a label saying neither empty nor full was accepted")
	}
}

// sample is a wallet-check result at concurrency 8 with the given throughput
// and latencies.
func sample(rps, p50, p99 float64) Result {
	return Result{Scenario: "wallet-check", Concurrency: 8, RPS: rps, LatencyMS: Latency{P50: p50, P99: p99}}
}

// writeResults writes each result, labelled, to its own file.
func writeResults(t *testing.T, label string, rs []Result) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i, r := range rs {
		r.Label = label
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "result-"+string(rune('a'+i))+".json")
		if err := os.WriteFile(path, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	return files
}
