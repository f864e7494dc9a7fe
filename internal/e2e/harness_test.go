package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// manyBots lifts the registration limit (3 per IP per hour) for tests that
// register more bots than that from the one test IP.
var manyBots = testserver.Options{Limits: app.Limits{RegisterPerHour: 1000}}

// harness is one running service and SDK clients that talk to it.
type harness struct {
	t      *testing.T
	ctx    context.Context
	srv    *testserver.Server
	wire   *recorder
	bots   *client.Client      // no API key: registration only
	owners *client.OwnerClient // no token: signup and login only
}

// forEachEngine runs test in parallel on every database engine, each with its
// own service.
func forEachEngine(t *testing.T, opts testserver.Options, test func(t *testing.T, h *harness)) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		test(t, start(t, dialect, opts))
	})
}

func start(t *testing.T, dialect store.Dialect, opts testserver.Options) *harness {
	srv := testserver.Start(t, dialect, opts)
	return newHarness(t, srv)
}

func newHarness(t *testing.T, srv *testserver.Server) *harness {
	wire := &recorder{t: t, next: srv.HTTP.Client().Transport, last: map[string]exchange{}}
	hc := &http.Client{Transport: wire}
	return &harness{t: t, ctx: t.Context(), srv: srv, wire: wire,
		bots:   client.New(srv.URL, "", client.WithHTTPClient(hc), client.WithUserAgent("botpay-e2e")),
		owners: client.NewOwner(srv.URL, "", client.WithHTTPClient(hc), client.WithUserAgent("botpay-e2e"))}
}

// fork gives a parallel subtest its own clients and recorder on the same
// service, so the "last answer" it inspects is its own.
func (h *harness) fork(t *testing.T) *harness { return newHarness(t, h.srv) }

// uniqueEmail returns a fresh address; tests on one service never share one.
func uniqueEmail(name string) string {
	b := make([]byte, 4)
	rand.Read(b)
	return name + "-" + hex.EncodeToString(b) + "@example.com"
}

// register registers a bot and returns a client that uses its API key.
func (h *harness) register(req client.RegisterRequest) (*client.Client, *client.Registration) {
	h.t.Helper()
	reg, err := h.bots.Register(h.ctx, req)
	if err != nil {
		h.t.Fatalf("register %q: %v", req.BotName, err)
	}
	return h.bots.WithAPIKey(reg.APIKey), reg
}

// signup creates an owner account and returns a client that uses its token.
func (h *harness) signup(email string) (*client.OwnerClient, *client.OwnerSession) {
	h.t.Helper()
	sess, err := h.owners.Signup(h.ctx, email, "correct horse battery staple")
	if err != nil {
		h.t.Fatalf("signup %s: %v", email, err)
	}
	return h.owners.WithToken(sess.Token), sess
}

// claimed is a registered bot claimed by a fresh owner.
type claimed struct {
	bot   *client.Client
	reg   *client.Registration
	owner *client.OwnerClient
	sess  *client.OwnerSession
}

func (h *harness) claimedBot(name string) claimed {
	h.t.Helper()
	return claimBot(h.t, h.ctx, h.bots, h.owners, name)
}

// claimBot is the e2e layer's one fixture builder: a bot named name,
// registered through bots and claimed by a fresh owner signed up through
// owners (the harness's recorded clients, or raw's own).
func claimBot(t testing.TB, ctx context.Context, bots *client.Client, owners *client.OwnerClient, name string) claimed {
	t.Helper()
	reg, err := bots.Register(ctx, client.RegisterRequest{BotName: name, OwnerEmail: uniqueEmail(name)})
	if err != nil {
		t.Fatalf("register %q: %v", name, err)
	}
	sess, err := owners.Signup(ctx, uniqueEmail(name+"-owner"), "correct horse battery staple")
	if err != nil {
		t.Fatalf("signup of %s's owner: %v", name, err)
	}
	owner := owners.WithToken(sess.Token)
	if _, err := owner.Claim(ctx, *reg.ClaimToken); err != nil {
		t.Fatalf("claim %s: %v", reg.BotID, err)
	}
	return claimed{bot: bots.WithAPIKey(reg.APIKey), reg: reg, owner: owner, sess: sess}
}

// fund funds a bot and fails the test on error.
func (h *harness) fund(c claimed, amount client.USD, opts ...client.CallOption) *client.Funding {
	h.t.Helper()
	f, err := c.owner.Fund(h.ctx, c.reg.BotID, amount, "", opts...)
	if err != nil {
		h.t.Fatalf("fund %s with %s: %v", c.reg.BotID, amount, err)
	}
	return f
}

// mailTo lists the messages sent to addr so far, except the address
// verification every signup sends (allMailTo includes it).
func (h *harness) mailTo(addr string) []mail.Message {
	var out []mail.Message
	for _, m := range h.allMailTo(addr) {
		if m.Subject != verificationSubject {
			out = append(out, m)
		}
	}
	return out
}

const verificationSubject = "Verify your botpay e-mail address"

// allMailTo lists every message sent to addr so far.
func (h *harness) allMailTo(addr string) []mail.Message {
	var out []mail.Message
	for _, m := range h.srv.Mail.Sent() {
		if m.To == addr {
			out = append(out, m)
		}
	}
	return out
}

// wantError checks that err is the service error status/code and returns it.
func wantError(t *testing.T, err error, status int, code string) *client.Error {
	t.Helper()
	var e *client.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want HTTP %d %s", err, status, code)
	}
	if e.StatusCode != status || e.Code != code {
		t.Fatalf("err = HTTP %d %q (%s), want HTTP %d %q", e.StatusCode, e.Code, e.Message, status, code)
	}
	if !client.IsCode(err, code) {
		t.Fatalf("IsCode(err, %q) = false", code)
	}
	return e
}

// usd is a pointer to an amount, for optional fields.
func usd(cents client.USD) *client.USD { return &cents }

// --- raw answers -----------------------------------------------------------

// exchange is one raw answer.
type exchange struct {
	status int
	header http.Header
	body   []byte
}

// recorder is the HTTP transport of the SDK clients in these tests. It keeps
// the last raw answer per route, for what typed structs cannot show (null
// versus absent, status codes of successes, headers), and checks every answer
// against the wire conventions of the API reference (docs/api.md).
type recorder struct {
	t    *testing.T
	next http.RoundTripper
	mu   sync.Mutex
	last map[string]exchange // "METHOD /path"
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	next := r.next
	if next == nil {
		next = http.DefaultTransport
	}
	resp, err := next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	route := req.Method + " " + req.URL.Path
	checkWireConventions(r.t, route, resp, body)
	r.mu.Lock()
	r.last[route] = exchange{status: resp.StatusCode, header: resp.Header.Clone(), body: body}
	r.mu.Unlock()
	return resp, nil
}

// answer is the last raw answer of a route ("POST /api/v1/bots/register").
func (r *recorder) answer(route string) exchange {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	x, ok := r.last[route]
	if !ok {
		r.t.Fatalf("no answer recorded for %s", route)
	}
	return x
}

// fields decodes the last answer of route as a JSON object, keeping each
// field's raw text.
func (r *recorder) fields(route string) map[string]json.RawMessage {
	r.t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.answer(route).body, &m); err != nil {
		r.t.Fatalf("%s: answer is not a JSON object: %v", route, err)
	}
	return m
}

// wantNull checks that the object has field, and that it is JSON null.
func wantNull(t *testing.T, fields map[string]json.RawMessage, field string) {
	t.Helper()
	v, ok := fields[field]
	if !ok {
		t.Errorf("field %q is absent, want present and null", field)
	} else if string(v) != "null" {
		t.Errorf("field %q = %s, want null", field, v)
	}
}

// wantAbsent checks that none of the fields appear in the object.
func wantAbsent(t *testing.T, fields map[string]json.RawMessage, names ...string) {
	t.Helper()
	for _, name := range names {
		if v, ok := fields[name]; ok {
			t.Errorf("field %q = %s, want it absent", name, v)
		}
	}
}

// timestampText is the one timestamp format: UTC with milliseconds and Z.
var timestampText = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`)

// checkWireConventions: JSON answers, the error shape {"error","message"}
// on failures, and every timestamp field ("*_at") in the one format.
func checkWireConventions(t *testing.T, route string, resp *http.Response, body []byte) {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("%s: Content-Type = %q, want JSON", route, ct)
		return
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Errorf("%s: answer is not JSON: %v", route, err)
		return
	}
	if resp.StatusCode >= 300 {
		obj, _ := v.(map[string]any)
		if code, _ := obj["error"].(string); code == "" {
			t.Errorf("%s: HTTP %d answer lacks a string \"error\": %s", route, resp.StatusCode, body)
		}
	}
	walkTimestamps(t, route, "", v)
}

func walkTimestamps(t *testing.T, route, path string, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if strings.HasSuffix(k, "_at") && child != nil {
				s, _ := child.(string)
				if !timestampText.MatchString(s) {
					t.Errorf("%s: %s%s = %v, want a UTC timestamp with milliseconds like 2026-11-21T09:30:00.000Z",
						route, path, k, child)
				}
			}
			walkTimestamps(t, route, path+k+".", child)
		}
	case []any:
		for _, child := range v {
			walkTimestamps(t, route, path+"[].", child)
		}
	}
}

// listFirst decodes the first element of the array field of the last answer
// of route.
func (h *harness) listFirst(t *testing.T, route, field string) map[string]json.RawMessage {
	t.Helper()
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(h.wire.fields(route)[field], &list); err != nil || len(list) == 0 {
		t.Fatalf("%s: %s is not a non-empty array: %v", route, field, err)
	}
	return list[0]
}
