// Command loadgen is botpay's load generator. It drives a running botpay
// server over loopback with N concurrent workers, each on a keep-alive
// connection, for a fixed duration or a fixed number of requests (whichever
// comes first; a run always ends by itself), records the latency of every
// request and prints throughput, success and error counts by HTTP status,
// and p50/p90/p99/max latency.
//
// Scenarios (-scenario):
//
//	wallet-check  sets up one claimed, funded bot through the public API
//	              (register, owner signup, claim, fund), then hammers
//	              GET /api/v1/bot/wallet/check with its API key (or with
//	              the key given by -api-key, skipping the set-up).
//	status        the same set-up, then GET /api/v1/bot/status.
//	checkout      sets up 32 claimed, funded bots with a card under one
//	              owner, then POSTs $1.00 auto-approved checkouts
//	              (bench/checkout-vs-pgbench.sh starts the server with the
//	              rate limits it needs).
//	register      POST /api/v1/bots/register with a unique bot name per
//	              request. The server must be started with a high
//	              BOTPAY_RATE_REGISTER_PER_HOUR, or most answers are 429.
//
// It only talks to loopback: a -url whose host is not in 127.0.0.0/8, ::1
// or "localhost" is refused, and every dialled address is checked again.
//
// Helper modes used by bench/run.sh, which needs nothing but Go:
// -report FILE... prints result files written with -out as one Markdown
// table; -free-port prints a free TCP port on 127.0.0.1; -wait-ready D waits
// up to D until the server at -url answers GET /readyz with 200.
//
// Examples:
//
//	loadgen -url http://127.0.0.1:8080 -scenario wallet-check -c 32 -d 10s
//	loadgen -scenario register -n 5000 -json
//	loadgen -report results/*.json
//
// It uses the standard library only.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"time"
)

// options are the command-line settings.
type options struct {
	url         string
	scenario    string
	concurrency int
	duration    time.Duration
	requests    int64
	warmup      time.Duration
	timeout     time.Duration
	jsonOut     bool
	outFile     string
	label       string
	report      bool
	compare     bool
	waitReady   time.Duration
	freePort    bool
	watch       cpuWatch
	apiKey      string
	callbackURL string
	bots        int
	client      string
}

// The -client values: each worker on a connection of its own
// (connSender; also when empty), or all through net/http's Client.
const (
	clientConn      = "conn"
	clientTransport = "transport"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	opts, rest, err := parseFlags(args)
	if err != nil {
		return err
	}
	switch {
	case opts.report:
		return printReport(stdout, rest)
	case opts.compare:
		return printComparison(stdout, rest)
	case opts.freePort:
		return printFreePort(stdout)
	case opts.waitReady > 0:
		return waitReady(opts.url, opts.waitReady)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := benchmark(ctx, opts)
	if err != nil {
		return err
	}
	return emit(stdout, opts, res)
}

func parseFlags(args []string) (options, []string, error) {
	var o options
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.StringVar(&o.url, "url", "http://127.0.0.1:8080", "base URL of the botpay server (loopback only)")
	fs.StringVar(&o.scenario, "scenario", "wallet-check", "one of: "+scenarioNames())
	fs.IntVar(&o.concurrency, "c", 32, "concurrent workers (one keep-alive connection each)")
	fs.DurationVar(&o.duration, "d", 10*time.Second, "measured duration; 0 = bounded by -n only")
	fs.Int64Var(&o.requests, "n", 0, "stop after this many measured requests; 0 = bounded by -d only")
	fs.DurationVar(&o.warmup, "warmup", time.Second, "unmeasured warm-up before the measured run")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "per-request timeout")
	fs.BoolVar(&o.jsonOut, "json", false, "print the result as JSON instead of text")
	fs.StringVar(&o.outFile, "out", "", "also write the JSON result to this file")
	fs.StringVar(&o.label, "label", "", "free-form label stored in the result (e.g. the database engine)")
	fs.IntVar(&o.bots, "bots", 256, "checkout: bots to set up and spread the checkouts over (0: one per worker)")
	fs.StringVar(&o.callbackURL, "callback-url", "https://bot.example.com/hook", "checkout: the bots' callback URL; empty: none (every event is staged when written)")
	fs.StringVar(&o.apiKey, "api-key", "", "wallet-check/status: use this existing bot's API key instead of setting up a new bot")
	fs.StringVar(&o.client, "client", clientConn, "how workers send: conn (each its own keep-alive connection, read and written on its goroutine; http only) or transport (net/http's Client, as before 2026-11-28)")
	fs.IntVar(&o.watch.serverPID, "watch-pid", 0, "server pid whose CPU time is reported (Linux /proc)")
	fs.StringVar(&o.watch.dbMatch, "watch-cmdline", "", "report the CPU time of processes whose command line contains this (e.g. the PostgreSQL database name)")
	fs.BoolVar(&o.report, "report", false, "print the result files named as arguments as a Markdown table")
	fs.BoolVar(&o.compare, "compare", false, "print full ÷ empty ratios (medians over rounds) of the result files named as arguments")
	fs.DurationVar(&o.waitReady, "wait-ready", 0, "only wait (at most this long) until -url answers GET /readyz with 200")
	fs.BoolVar(&o.freePort, "free-port", false, "only print a currently free TCP port on 127.0.0.1")
	if err := fs.Parse(args); err != nil {
		return o, nil, err
	}
	if o.report || o.compare || o.freePort {
		return o, fs.Args(), nil
	}
	if o.waitReady > 0 {
		_, err := loopbackURL(o.url)
		return o, fs.Args(), err
	}
	return o, fs.Args(), o.validate()
}

func (o options) validate() error {
	switch {
	case o.concurrency < 1 || o.concurrency > 4096:
		return errors.New("-c must be from 1 to 4096")
	case o.bots < 0 || o.bots > 100000:
		return errors.New("-bots must be from 0 (one per worker) to 100000")
	case o.duration < 0 || o.requests < 0 || o.warmup < 0:
		return errors.New("-d, -n and -warmup must not be negative")
	case o.duration == 0 && o.requests == 0:
		return errors.New("set -d or -n (or both): the run must be bounded")
	case o.timeout <= 0:
		return errors.New("-timeout must be positive")
	}
	if o.client != "" && o.client != clientConn && o.client != clientTransport {
		return fmt.Errorf("unknown -client %q (want %s or %s)", o.client, clientConn, clientTransport)
	}
	if u, err := loopbackURL(o.url); err == nil && o.client != clientTransport && u.Scheme != "http" {
		return fmt.Errorf("-client %s speaks plain HTTP only; use -client %s for %s", clientConn, clientTransport, u.Scheme)
	}
	if _, ok := scenarios[o.scenario]; !ok {
		return fmt.Errorf("unknown -scenario %q (want one of %s)", o.scenario, scenarioNames())
	}
	_, err := loopbackURL(o.url)
	return err
}

// emit prints the result as text or JSON and writes the -out file.
func emit(w io.Writer, o options, res Result) error {
	if o.outFile != "" {
		if err := writeResultFile(o.outFile, res); err != nil {
			return err
		}
	}
	if o.jsonOut {
		return writeJSON(w, res)
	}
	printText(w, res)
	return nil
}

// scenarioNames lists the registered scenarios, sorted, for messages.
func scenarioNames() string {
	names := make([]string, 0, len(scenarios))
	for name := range scenarios {
		names = append(names, name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
