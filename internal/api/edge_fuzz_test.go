package api_test

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/openapi"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// badText are path and query values PostgreSQL refuses as text (SQLSTATE
// 22021): invalid UTF-8, NUL, a lone surrogate's bytes, a truncated rune.
var badText = []string{"%ff", "%00", "a%00b", "%c3%28", "%ed%a0%80", "bot_%e2%82"}

// commonQuery are query parameters probed on every route beside those the
// OpenAPI document lists for it.
var commonQuery = []string{"ref", "t", "token", "cursor", "limit", "status", "confirmation_id", "id", "bot_id"}

// credentials sign the probes in, so they reach past authentication.
type credentials struct{ botKey, botID, ownerToken, tunnelToken string }

func (c credentials) authorization(path string) string {
	switch {
	case strings.HasPrefix(path, "/api/v1/owner/"), strings.HasPrefix(path, "/api/v1/bots/mine"):
		return "Bearer " + c.ownerToken
	case strings.HasPrefix(path, "/api/v1/tunnel/"):
		return "Bearer " + c.tunnelToken
	}
	return "Bearer " + c.botKey
}

// TestBadTextInPathsAndQueriesNeverFails500: every route the server serves
// (from its own route list, so new routes are covered) is called with each
// path value and each query parameter holding text the database refuses,
// signed in as the right party, on both engines: no answer is a 500, a bad
// query parameter is 400 (validation_error naming it on the API), and a
// bad path value is 404.
func TestBadTextInPathsAndQueriesNeverFails500(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		key, botID := claimedBot(t, srv, o)
		tunnel := register(t, srv, map[string]any{"bot_name": unique("tunnel"), "owner_email": o.email})
		creds := credentials{botKey: key, botID: botID, ownerToken: o.token, tunnelToken: tunnel.str("tunnel_token")}
		documented := documentedQueries(t)
		for _, pattern := range srv.Handler.Patterns() {
			method, path := splitPattern(pattern)
			names := append(slices.Clone(commonQuery), documented[strings.ToLower(method)+" "+path]...)
			t.Run(pattern, func(t *testing.T) {
				for _, wildcard := range botpay.PatternWildcards(path) {
					for _, bad := range badText {
						r := probe(t, srv, creds, method, fill(path, creds, wildcard, bad), "")
						wantRefused(t, r, http.StatusNotFound, "", pattern, wildcard+"="+bad)
					}
				}
				for _, name := range names {
					for _, bad := range badText {
						r := probe(t, srv, creds, method, fill(path, creds, "", ""), name+"="+bad)
						wantRefused(t, r, http.StatusBadRequest, name, pattern, "?"+name+"="+bad)
					}
				}
			})
		}
	})
}

// wantRefused: never a 500; the edge's answer when the route exists.
func wantRefused(t *testing.T, r response, status int, param, pattern, what string) {
	t.Helper()
	if r.status >= 500 {
		t.Errorf("%s with %s: %s", pattern, what, r)
		return
	}
	if r.status != status {
		t.Errorf("%s with %s: HTTP %d, want %d (%s)", pattern, what, r.status, status, r)
		return
	}
	if param != "" && strings.HasPrefix(pattern[strings.IndexByte(pattern, ' ')+1:], "/api/") {
		details, _ := r.body["details"].(map[string]any)
		if param == "cursor" && r.str("error") == "invalid_cursor" {
			return
		}
		if r.str("error") != "validation_error" || details[param] == nil {
			t.Errorf("%s with %s: want validation_error naming %s, got %s", pattern, what, param, r)
		}
	}
}

func splitPattern(pattern string) (method, path string) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		return http.MethodGet, pattern
	}
	return method, path
}

// fill gives every wildcard of path a plausible value (the bot's own id
// for bot_id), except wildcard, which gets bad.
func fill(path string, creds credentials, wildcard, bad string) string {
	for _, name := range botpay.PatternWildcards(path) {
		value := "x1"
		switch {
		case name == wildcard:
			value = bad
		case name == "bot_id":
			value = creds.botID
		case name == "kind":
			value = "purchase"
		case name == "action":
			value = "approve"
		}
		path = strings.Replace(path, "{"+name+"}", value, 1)
		path = strings.Replace(path, "{"+name+"...}", value, 1)
	}
	return strings.TrimSuffix(path, "{$}")
}

// probe sends one request signed in as the route's party (and with the
// dashboard session); a slow answer (a long poll) is not a failure.
func probe(t *testing.T, srv *testserver.Server, creds credentials, method, path, query string) response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	target := srv.URL + path
	if query != "" {
		target += "?" + query
	}
	var body io.Reader
	if method == http.MethodPost || method == http.MethodPut || method == http.MethodPatch {
		body = strings.NewReader(`{}`)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", creds.authorization(path))
	req.Header.Set("X-Tunnel-Session", "edge-probe-session")
	req.AddCookie(&http.Cookie{Name: "botpay_session", Value: creds.ownerToken})
	res, err := srv.HTTP.Client().Do(req)
	if err != nil {
		t.Logf("%s %s: %v", method, target, err)
		return response{status: http.StatusNotFound}
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := response{status: res.StatusCode, header: res.Header, raw: raw}
	_ = json.Unmarshal(raw, &r.body)
	return r
}

// documentedQueries: "get /api/v1/bot/sales" → the query parameters the
// OpenAPI document gives it.
func documentedQueries(t *testing.T) map[string][]string {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openapi.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for path, item := range doc.Paths {
		for method, raw := range item {
			var op struct {
				Parameters []struct{ Name, In string } `json:"parameters"`
			}
			if json.Unmarshal(raw, &op) != nil {
				continue
			}
			for _, p := range op.Parameters {
				if p.In == "query" {
					out[method+" "+path] = append(out[method+" "+path], url.QueryEscape(p.Name))
				}
			}
		}
	}
	return out
}

// TestNULInJSONBodiesNeverFails500: every JSON endpoint is sent a body whose
// every documented field is a string holding NUL (PostgreSQL refuses it in
// text); no answer is a 500, on both engines.
func TestNULInJSONBodiesNeverFails500(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		key, botID := claimedBot(t, srv, o)
		creds := credentials{botKey: key, botID: botID, ownerToken: o.token}
		fields := documentedBodyFields(t)
		for _, pattern := range srv.Handler.Patterns() {
			method, path := splitPattern(pattern)
			names, ok := fields[strings.ToLower(method)+" "+path]
			if !ok || strings.HasPrefix(path, "/api/v1/tunnel/") {
				continue
			}
			body := map[string]any{}
			for _, name := range names {
				body[name] = "a\u0000b"
			}
			r := do(t, srv, method, fill(path, creds, "", ""), body, "Authorization", creds.authorization(path))
			if r.status >= 500 {
				t.Errorf("%s with NUL in %v: %s", pattern, names, r)
			}
		}
	})
}

// documentedBodyFields: "post /api/v1/bot/invoices/create" → the property
// names of its JSON request body in the OpenAPI document.
func documentedBodyFields(t *testing.T) map[string][]string {
	type schema struct {
		Ref        string                     `json:"$ref"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]schema `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapi.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for path, item := range doc.Paths {
		for method, raw := range item {
			var op struct {
				RequestBody struct {
					Content map[string]struct{ Schema schema } `json:"content"`
				} `json:"requestBody"`
			}
			if json.Unmarshal(raw, &op) != nil {
				continue
			}
			s, ok := op.RequestBody.Content["application/json"]
			if !ok {
				continue
			}
			if s.Schema.Ref != "" {
				s.Schema = doc.Components.Schemas[strings.TrimPrefix(s.Schema.Ref, "#/components/schemas/")]
			}
			out[method+" "+path] = slices.Sorted(maps.Keys(s.Schema.Properties))
		}
	}
	return out
}

// TestNULInDashboardFormIsRefused: a form field holding NUL is refused at
// the pages' edge, before any use case sees it, as an HTML 400 naming the
// field, and nothing changes. (The use cases refuse such fields too today;
// the edge keeps a new form field from reaching PostgreSQL unchecked.)
func TestNULInDashboardFormIsRefused(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		o := signup(t, srv)
		_, botID := claimedBot(t, srv, o)
		form := url.Values{"approval_mode": {"ask_for_everything"}, "per_transaction_usd": {"5"}, "daily_usd": {"10"},
			"monthly_usd": {"50"}, "notes": {"a\x00b"}}
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/dashboard/bots/"+botID+"/guardrails", strings.NewReader(form.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: "botpay_session", Value: o.token})
		res, err := srv.HTTP.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "notes") {
			t.Errorf("HTTP %d, want 400 naming notes: %.300s", res.StatusCode, body)
		}
		g := do(t, srv, http.MethodGet, "/api/v1/owner/bots/"+botID+"/guardrails", nil, auth(o.token)...)
		if g.body["per_transaction_usd"] == 5.0 {
			t.Errorf("the guardrails changed: %s", g)
		}
	})
}
