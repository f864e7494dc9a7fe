package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/botpay/botpay/client"
)

// rawAnswers keeps the bodies of the service's answers as they came over
// the wire, so --json prints the service's JSON, not the SDK's reading of
// it.
type rawAnswers struct {
	mu     sync.Mutex
	bodies [][]byte
}

func (r *rawAnswers) httpClient() *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: r}
}

func (r *rawAnswers) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.bodies = append(r.bodies, data)
	r.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp, nil
}

// last is the most recent answer's body.
func (r *rawAnswers) last() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.bodies) == 0 {
		return nil
	}
	return r.bodies[len(r.bodies)-1]
}

// printRaw writes body with a final newline.
func printRaw(w io.Writer, body []byte) {
	w.Write(bytes.TrimRight(body, "\n"))
	fmt.Fprintln(w)
}

// classify turns a verb's error into the documented exit code and prints
// what a person needs: the code, the message and the request id to quote.
func classify(err error, s *botSession, stderr io.Writer) error {
	var exit *exitError
	var apiErr *client.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &exit):
		return exit
	case errors.As(err, &apiErr):
		if s.json {
			printRaw(s.out, s.answer.last())
		}
		printAPIError(stderr, apiErr)
		return &exitError{code: exitAPI, err: err, printed: true}
	case isNetworkError(err):
		fmt.Fprintf(stderr, "error: the service could not be reached: %v\n", err)
		return &exitError{code: exitNetwork, err: err, printed: true}
	default:
		fmt.Fprintf(stderr, "error: %v\n", err)
		return &exitError{code: exitAPI, err: err, printed: true}
	}
}

func printAPIError(w io.Writer, e *client.Error) {
	code := e.Code
	if code == "" {
		code = "(not a botpay error answer)"
	}
	fmt.Fprintf(w, "error: %s (HTTP %d)\nmessage: %s\n", code, e.StatusCode, e.Message)
	fields := make([]string, 0, len(e.Details))
	for field := range e.Details {
		fields = append(fields, field)
	}
	sort.Strings(fields)
	for _, field := range fields {
		fmt.Fprintf(w, "  %s: %s\n", field, e.Details[field])
	}
	if e.Reason != "" {
		fmt.Fprintf(w, "reason: %s\n", e.Reason)
	}
	if e.RetryAfterSeconds > 0 {
		fmt.Fprintf(w, "retry after: %d s\n", e.RetryAfterSeconds)
	}
	if e.RequestID != "" {
		fmt.Fprintf(w, "request id: %s\n", e.RequestID)
	}
}

func isNetworkError(err error) bool {
	var urlErr *url.Error
	var netErr net.Error
	return errors.As(err, &urlErr) || errors.As(err, &netErr)
}

// table prints aligned columns, the header in capitals.
type table struct{ w *tabwriter.Writer }

func newTable(out io.Writer, columns ...string) *table {
	t := &table{w: tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)}
	t.row(columns...)
	return t
}

func (t *table) row(cells ...string) {
	for i, c := range cells {
		cells[i] = strings.NewReplacer("\t", " ", "\n", " ").Replace(c)
	}
	fmt.Fprintln(t.w, strings.Join(cells, "\t"))
}

func (t *table) flush() { t.w.Flush() }

// fields prints name: value lines, aligned.
func fields(out io.Writer, pairs ...string) {
	w := tabwriter.NewWriter(out, 0, 0, 1, ' ', 0)
	for i := 0; i+1 < len(pairs); i += 2 {
		fmt.Fprintf(w, "%s:\t%s\n", pairs[i], pairs[i+1])
	}
	w.Flush()
}

func usd(u client.USD) string { return "$" + u.String() }

func usdOrNone(u *client.USD) string {
	if u == nil {
		return "-"
	}
	return usd(*u)
}

// usdNumber shows an amount the document types as a plain number the way
// usd does, to the cent; text that is not an amount is shown as it came.
func usdNumber(n json.Number) string {
	u, err := client.ParseUSD(n.String())
	if err != nil {
		return n.String()
	}
	return usd(u)
}

func usdNumberOrNone(n *json.Number) string {
	if n == nil {
		return "-"
	}
	return usdNumber(*n)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04:05Z")
}

// compactJSON puts a message's data on one table line.
func compactJSON(data json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, data) != nil {
		return string(data)
	}
	return b.String()
}

func orDashPtr(s *string) string {
	if s == nil {
		return "-"
	}
	return orDash(*s)
}

// orEmpty is an optional text of an answer, "" when absent.
func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// optional is a flag's text as an optional member: left out when empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
