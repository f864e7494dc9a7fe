package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Goals of the scale comparison: the full database within 1.5×
// of the empty one in latency, and so at least 1/1.5 of its throughput.
const (
	maxLatencyRatio    = 1.5
	minThroughputRatio = 1 / 1.5
)

// comparedRuns are the rounds of one engine, scenario and concurrency, on
// the empty database (base) and the full one.
type comparedRuns struct {
	engine, scenario string
	concurrency      int
	base, full       []Result
}

// printComparison prints, for each engine, scenario and concurrency, the
// median over rounds of throughput, p50 and p99 on the full database
// beside the empty one, their ratios and whether the goals hold. A result
// belongs to the empty side when its label holds "empty" and to the full
// side when it holds "full"; the engine is the label's first word.
func printComparison(w io.Writer, files []string) error {
	groups, err := compareGroups(files)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "| engine | scenario | conc. | rounds | req/s empty → full | ratio (≥ 0.67) | p50 ms empty → full | ratio (≤ 1.5) | p99 ms empty → full | ratio (≤ 1.5) | goal |")
	fmt.Fprintln(w, "|---|---|---:|---:|---|---:|---|---:|---|---:|---|")
	for _, g := range groups {
		rps := [2]float64{median(g.base, func(r Result) float64 { return r.RPS }), median(g.full, func(r Result) float64 { return r.RPS })}
		p50 := [2]float64{median(g.base, func(r Result) float64 { return r.LatencyMS.P50 }), median(g.full, func(r Result) float64 { return r.LatencyMS.P50 })}
		p99 := [2]float64{median(g.base, func(r Result) float64 { return r.LatencyMS.P99 }), median(g.full, func(r Result) float64 { return r.LatencyMS.P99 })}
		verdict := "meets"
		if rps[1]/rps[0] < minThroughputRatio || p50[1]/p50[0] > maxLatencyRatio || p99[1]/p99[0] > maxLatencyRatio {
			verdict = "**misses**"
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d / %d | %.0f → %.0f | %.2f | %.2f → %.2f | %.2f | %.2f → %.2f | %.2f | %s |\n",
			g.engine, g.scenario, g.concurrency, len(g.base), len(g.full), rps[0], rps[1], rps[1]/rps[0],
			p50[0], p50[1], p50[1]/p50[0], p99[0], p99[1], p99[1]/p99[0], verdict)
	}
	return nil
}

// compareGroups reads the result files into groups that have both sides,
// in the order each group first appears.
func compareGroups(files []string) ([]*comparedRuns, error) {
	var groups []*comparedRuns
	byKey := map[string]*comparedRuns{}
	for _, path := range files {
		r, err := readResultFile(path)
		if err != nil {
			return nil, err
		}
		engine, _, _ := strings.Cut(r.Label, " ")
		key := fmt.Sprintf("%s|%s|%d", engine, r.Scenario, r.Concurrency)
		g := byKey[key]
		if g == nil {
			g = &comparedRuns{engine: engine, scenario: r.Scenario, concurrency: r.Concurrency}
			byKey[key] = g
			groups = append(groups, g)
		}
		switch {
		case strings.Contains(r.Label, "empty"):
			g.base = append(g.base, r)
		case strings.Contains(r.Label, "full"):
			g.full = append(g.full, r)
		default:
			return nil, fmt.Errorf("%s: label %q says neither empty nor full", path, r.Label)
		}
	}
	groups = slices.DeleteFunc(groups, func(g *comparedRuns) bool { return len(g.base) == 0 || len(g.full) == 0 })
	if len(groups) == 0 {
		return nil, fmt.Errorf("-compare needs result files of both an empty and a full database")
	}
	return groups, nil
}

// median is the median of f over the results (the mean of the middle two
// for an even count).
func median(rs []Result, f func(Result) float64) float64 {
	vs := make([]float64, len(rs))
	for i, r := range rs {
		vs[i] = f(r)
	}
	slices.Sort(vs)
	mid := len(vs) / 2
	if len(vs)%2 == 0 {
		return (vs[mid-1] + vs[mid]) / 2
	}
	return vs[mid]
}
