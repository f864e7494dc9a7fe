package testserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// Answer is a JSON answer of the service.
type Answer struct {
	Status int
	Header http.Header
	Raw    []byte
	// Body is Raw decoded as an object, or {"_raw": Raw} when it is not one.
	Body map[string]any
}

// CallJSON sends body (none when nil) as JSON to url, with the bearer
// token when given and headers as name, value pairs.
func CallJSON(t testing.TB, method, url, token string, body any, headers ...string) Answer {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	a := Answer{Status: resp.StatusCode, Header: resp.Header}
	if a.Raw, err = io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	if json.Unmarshal(a.Raw, &a.Body) != nil || a.Body == nil {
		a.Body = map[string]any{"_raw": string(a.Raw)}
	}
	return a
}
