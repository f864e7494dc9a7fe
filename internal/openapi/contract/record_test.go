package contract

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShapeKeepsPathsAndTypesNotValues(t *testing.T) {
	cases := []struct{ contentType, body, want string }{
		{"application/json", ``, "-"},
		{"application/json", `{}`, "{}"},
		{"application/json", `{"message":"b","error":"a"}`, "error:string message:string"},
		{"application/json", `{"items":[{"id":"x","n":1},{"id":"y","ok":true}],"next":null}`,
			"items:array items[].id:string items[].n:number items[].ok:boolean items[]:object next:null"},
		{"application/json", `{"details":{"amount_usd":"is required"}}`,
			"details.amount_usd:string details:object"},
		{"application/json", `[1,"a"]`, "$:array []:number []:string"},
		{"application/x-www-form-urlencoded", `b=2&a=1&a=3`, "a:form b:form"},
		{"text/html; charset=utf-8", `<p>hi</p>`, "bytes"},
		{"", `{"a":1}{"b":2}`, "bytes"},
	}
	for _, c := range cases {
		if got := Shape(c.contentType, []byte(c.body)); got != c.want {
			t.Errorf("Shape(%q, %s) = %q, want %q", c.contentType, c.body, got, c.want)
		}
	}
	// Two answers that differ only in their values have one shape.
	a := Shape("application/json", []byte(`{"id":"sale_1","amount_usd":"1.00","at":"2026-11-28T01:00:00Z"}`))
	b := Shape("application/json", []byte(`{"id":"sale_2","amount_usd":"9.99","at":"2026-11-29T02:00:00Z"}`))
	if a != b {
		t.Errorf("shapes differ by value: %q, %q", a, b)
	}
}

func TestRecordingMiddlewareWritesALinePerExchange(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "record")
	rec, err := OpenRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api/v1/bots/register" {
			w.Header().Set("Retry-After", "60")
			w.Header().Set("X-Not-Documented", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":"rate_limited","message":"later","retry_after_seconds":60}`))
			return
		}
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"not_found","message":"no such route"}`))
	})
	record := func(line string) {
		if err := rec.Record(line); err != nil {
			t.Error(err)
		}
	}
	srv := httptest.NewServer(c.RecordingMiddleware(func(string) {}, record, h))
	defer srv.Close()
	for _, path := range []string{"/api/v1/bots/register", "/api/v1/bots/bot_123/no/such/route"} {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(`{"bot_name":"b","owner_email":"o@example.com"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "POST\t/api/v1/bots/register\t429\tapplication/json\treq:bot_name:string owner_email:string\t" +
		"resp:error:string message:string retry_after_seconds:number\theaders:Retry-After\n" +
		"POST\t(undocumented)\t404\tapplication/json\treq:bot_name:string owner_email:string\tresp:error:string message:string\theaders:-\n"
	if string(got) != want {
		t.Errorf("record:\n%s\nwant:\n%s", got, want)
	}
}
