package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"time"
)

// Result is one measured run; it is also the -json and -out format.
type Result struct {
	Label           string           `json:"label,omitempty"`
	Scenario        string           `json:"scenario"`
	URL             string           `json:"url"`
	Client          string           `json:"client,omitempty"`
	Concurrency     int              `json:"concurrency"`
	GoMaxProcs      int              `json:"gomaxprocs"`
	Started         string           `json:"started"`
	DurationSeconds float64          `json:"duration_seconds"`
	Requests        int64            `json:"requests"`
	RPS             float64          `json:"requests_per_second"`
	Success         int64            `json:"success"`
	Failed          int64            `json:"failed"`
	ByStatus        map[string]int64 `json:"by_status"`
	TransportErrors map[string]int64 `json:"transport_errors,omitempty"`
	LatencyMS       Latency          `json:"latency_ms"`
	CPU             *CPU             `json:"cpu,omitempty"`
}

// Latency summarises the answered requests, in milliseconds.
type Latency struct {
	Min  float64 `json:"min"`
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// summarize merges the workers' tallies. Success means a 2xx answer;
// Failed counts other statuses and transport errors.
func summarize(tallies []*tally, elapsed time.Duration) Result {
	res := Result{DurationSeconds: elapsed.Seconds(), ByStatus: map[string]int64{}, TransportErrors: map[string]int64{}}
	var all []time.Duration
	for _, t := range tallies {
		all = append(all, t.latencies...)
		for code, n := range t.statuses {
			res.ByStatus[statusKey(code)] += n
			res.Requests += n
			if code >= 200 && code < 300 {
				res.Success += n
			} else {
				res.Failed += n
			}
		}
		for kind, n := range t.errs {
			res.TransportErrors[kind] += n
			res.Requests += n
			res.Failed += n
		}
	}
	if elapsed > 0 {
		res.RPS = float64(res.Requests) / elapsed.Seconds()
	}
	res.LatencyMS = latencyOf(all)
	return res
}

func latencyOf(d []time.Duration) Latency {
	if len(d) == 0 {
		return Latency{}
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	var sum time.Duration
	for _, v := range d {
		sum += v
	}
	return Latency{
		Min:  millis(d[0]),
		Mean: millis(sum / time.Duration(len(d))),
		P50:  millis(percentile(d, 0.50)),
		P90:  millis(percentile(d, 0.90)),
		P99:  millis(percentile(d, 0.99)),
		Max:  millis(d[len(d)-1]),
	}
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p*float64(len(sorted)))) - 1
	if i < 0 {
		i = 0
	}
	return sorted[i]
}

func millis(d time.Duration) float64 { return math.Round(float64(d)/1e3) / 1e3 }

func printText(w io.Writer, r Result) {
	fmt.Fprintf(w, "scenario      %s%s\n", r.Scenario, labelSuffix(r.Label))
	fmt.Fprintf(w, "target        %s (concurrency %d, GOMAXPROCS %d)\n", r.URL, r.Concurrency, r.GoMaxProcs)
	fmt.Fprintf(w, "duration      %.2f s\n", r.DurationSeconds)
	fmt.Fprintf(w, "requests      %d (%.1f requests/s)\n", r.Requests, r.RPS)
	fmt.Fprintf(w, "success       %d\n", r.Success)
	fmt.Fprintf(w, "failed        %d\n", r.Failed)
	for _, k := range sortedKeys(r.ByStatus) {
		fmt.Fprintf(w, "  status %s    %d\n", k, r.ByStatus[k])
	}
	for _, k := range sortedKeys(r.TransportErrors) {
		fmt.Fprintf(w, "  error %-6s %d\n", k, r.TransportErrors[k])
	}
	l := r.LatencyMS
	fmt.Fprintf(w, "latency (ms)  p50 %.3f  p90 %.3f  p99 %.3f  max %.3f  (min %.3f, mean %.3f)\n",
		l.P50, l.P90, l.P99, l.Max, l.Min, l.Mean)
	if c := r.CPU; c != nil {
		fmt.Fprintf(w, "cpu (cores)   busy %.2f of %d: server %.2f, database %.2f, loadgen %.2f, other processes %.2f\n",
			c.Busy, c.Cores, c.Server, c.Database, c.Loadgen, c.Other)
		fmt.Fprintf(w, "cpu/request   server %.0f us, database %.0f us, loadgen %.0f us\n", c.ServerPerReqUS, c.DBPerReqUS, c.LoadgenPerReq)
	}
}

func labelSuffix(label string) string {
	if label == "" {
		return ""
	}
	return " [" + label + "]"
}

func sortedKeys(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func writeJSON(w io.Writer, r Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func writeResultFile(path string, r Result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := writeJSON(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// printReport prints result files as one Markdown table.
func printReport(w io.Writer, files []string) error {
	if len(files) == 0 {
		return fmt.Errorf("-report needs result files as arguments")
	}
	fmt.Fprintln(w, "| engine | scenario | conc. | requests | requests/s | ok | failed | p50 ms | p90 ms | p99 ms | max ms | CPU server/db/loadgen/other (cores) | server µs/req | db µs/req |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|")
	for _, path := range files {
		r, err := readResultFile(path)
		if err != nil {
			return err
		}
		l := r.LatencyMS
		fmt.Fprintf(w, "| %s | %s | %d | %d | %.0f | %d | %s | %.2f | %.2f | %.2f | %.2f | %s |\n",
			r.Label, r.Scenario, r.Concurrency, r.Requests, r.RPS, r.Success, failures(r), l.P50, l.P90, l.P99, l.Max, cpuCells(r.CPU))
	}
	return nil
}

func readResultFile(path string) (Result, error) {
	var r Result
	raw, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// failures is the failed count with its breakdown, e.g. "12 (429: 12)".
func failures(r Result) string {
	if r.Failed == 0 {
		return "0"
	}
	var parts []string
	for _, k := range sortedKeys(r.ByStatus) {
		if !strings.HasPrefix(k, "2") {
			parts = append(parts, fmt.Sprintf("%s: %d", k, r.ByStatus[k]))
		}
	}
	for _, k := range sortedKeys(r.TransportErrors) {
		parts = append(parts, fmt.Sprintf("%s: %d", k, r.TransportErrors[k]))
	}
	return fmt.Sprintf("%d (%s)", r.Failed, strings.Join(parts, ", "))
}

func cpuCells(c *CPU) string {
	if c == nil {
		return "- | - | -"
	}
	return fmt.Sprintf("%.2f / %.2f / %.2f / %.2f | %.0f | %.0f", c.Server, c.Database, c.Loadgen, c.Other, c.ServerPerReqUS, c.DBPerReqUS)
}
