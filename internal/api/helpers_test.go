package api_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/testserver"
)

// testPassword satisfies the 12-character minimum of docs/decisions.md.
const testPassword = "correct horse battery staple"

// lenient lifts the rate limits that a test is not about, so it can make as
// many calls as it needs from one client address.
func lenient() testserver.Options {
	return testserver.Options{Limits: app.Limits{RegisterPerHour: 1000, PairingPerHour: 1000,
		LoginPerHour: 1000, ClaimPerHour: 1000, TopupPerHour: 1000}}
}

// response is one HTTP answer, with its body decoded when it is an object.
type response struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

func (r response) str(key string) string {
	s, _ := r.body[key].(string)
	return s
}

func (r response) String() string {
	return fmt.Sprintf("HTTP %d %s", r.status, bytes.TrimSpace(r.raw))
}

// send makes one request. body is sent as is when it is a string or
// []byte, JSON-encoded otherwise, and omitted when nil. kv are header
// name/value pairs. It is safe to call from several goroutines.
func send(srv *testserver.Server, method, path string, body any, kv ...string) (response, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return response{}, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, srv.URL+path, rd)
	if err != nil {
		return response{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(kv); i += 2 {
		req.Header.Set(kv[i], kv[i+1])
	}
	res, err := srv.HTTP.Client().Do(req)
	if err != nil {
		return response{}, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return response{}, err
	}
	r := response{status: res.StatusCode, header: res.Header, raw: raw}
	_ = json.Unmarshal(raw, &r.body)
	return r, nil
}

func do(t testing.TB, srv *testserver.Server, method, path string, body any, kv ...string) response {
	t.Helper()
	r, err := send(srv, method, path, body, kv...)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

func auth(token string) []string { return []string{"Authorization", "Bearer " + token} }

// wantStatus fails unless the answer has the status.
func wantStatus(t testing.TB, r response, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("want HTTP %d, got %s", status, r)
	}
}

// wantError checks the error shape of the API reference (docs/api.md): exact status, exact
// code, a non-empty message, in JSON.
func wantError(t testing.TB, r response, status int, code string) {
	t.Helper()
	wantStatus(t, r, status)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q, want application/json (%s)", ct, r)
	}
	if got := r.str("error"); got != code {
		t.Errorf("error %q, want %q (%s)", got, code, r)
	}
	if r.str("message") == "" {
		t.Errorf("message is empty (%s)", r)
	}
}

// wantValidation checks a 400 validation_error whose details name field.
func wantValidation(t testing.TB, r response, field string) {
	t.Helper()
	wantError(t, r, http.StatusBadRequest, "validation_error")
	details, _ := r.body["details"].(map[string]any)
	if s, _ := details[field].(string); s == "" {
		t.Errorf("details do not name %q (%s)", field, r)
	}
}

var serial atomic.Int64

// processTag keeps names of one test process apart from another's that
// share a database.
var processTag = botpay.NewID("")[:6]

// unique returns a name no other call returns.
func unique(prefix string) string { return fmt.Sprintf("%s-%s%d", prefix, processTag, serial.Add(1)) }

// botBody is a valid registration body with a callback URL (no tunnel).
func botBody(ownerEmail string) map[string]any {
	return map[string]any{"bot_name": unique("bot"), "owner_email": ownerEmail,
		"callback_url": "https://bot.example.com/hook"}
}

// register registers a bot and requires 201.
func register(t testing.TB, srv *testserver.Server, body map[string]any, kv ...string) response {
	t.Helper()
	r := do(t, srv, http.MethodPost, "/api/v1/bots/register", body, kv...)
	wantStatus(t, r, http.StatusCreated)
	return r
}

// owner is a signed-up owner.
type owner struct{ uid, email, token string }

func signup(t testing.TB, srv *testserver.Server) owner {
	t.Helper()
	email := unique("owner") + "@example.com"
	r := do(t, srv, http.MethodPost, "/api/v1/owner/signup", map[string]any{"email": email, "password": testPassword})
	wantStatus(t, r, http.StatusCreated)
	return owner{uid: r.str("owner_uid"), email: email, token: r.str("token")}
}

// claimedBot registers a bot for o and claims it; it returns the bot's API
// key and ID.
func claimedBot(t testing.TB, srv *testserver.Server, o owner) (apiKey, botID string) {
	t.Helper()
	reg := register(t, srv, botBody(o.email))
	r := do(t, srv, http.MethodPost, "/api/v1/owner/bots/claim", map[string]any{"claim_token": reg.str("claim_token")}, auth(o.token)...)
	wantStatus(t, r, http.StatusOK)
	return reg.str("api_key"), reg.str("bot_id")
}

// rawDB opens the server's database directly, beside the service, for
// checks of what is actually stored.
func rawDB(t testing.TB, srv *testserver.Server) *sql.DB {
	t.Helper()
	o := srv.DB.Options
	var db *sql.DB
	var err error
	if o.DatabaseURL != "" {
		db, err = sql.Open("pgx", o.DatabaseURL)
	} else {
		db, err = sql.Open("sqlite", "file:"+filepath.Join(o.DataDir, "botpay.db")+"?_pragma=busy_timeout(10000)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// countRows counts the rows of a table, straight from the database.
func countRows(t testing.TB, srv *testserver.Server, table string) int {
	t.Helper()
	var n int
	if err := rawDB(t, srv).QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// wantRows fails unless table has exactly n rows.
func wantRows(t testing.TB, srv *testserver.Server, table string, n int) {
	t.Helper()
	if got := countRows(t, srv, table); got != n {
		t.Errorf("%s has %d rows, want %d", table, got, n)
	}
}
