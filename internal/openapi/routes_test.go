package openapi_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/openapi"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/testserver"
)

var pathParam = regexp.MustCompile(`\{[^}]*\}`)

// route normalises "GET /pay/{id}" and the document's "get /pay/{id}" to
// one form; a trailing {$} is the document's trailing slash.
func route(method, path string) string {
	path = strings.TrimSuffix(path, "{$}")
	return strings.ToUpper(method) + " " + pathParam.ReplaceAllString(path, "{}")
}

// Every route the service's ServeMux serves is in the document, and every
// operation of the document is served.
func TestEveryRouteIsDocumentedAndEveryDocumentedRouteServed(t *testing.T) {
	t.Parallel()
	srv := testserver.Start(t, store.SQLite, testserver.Options{})
	var served []string
	for _, p := range srv.Handler.Patterns() {
		method, path, _ := strings.Cut(p, " ")
		served = append(served, route(method, path))
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openapi.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	var documented []string
	for path, item := range doc.Paths {
		for method := range item {
			if slices.Contains([]string{"get", "put", "post", "patch", "delete"}, method) {
				documented = append(documented, route(method, path))
			}
		}
	}
	for _, r := range served {
		if !slices.Contains(documented, r) {
			t.Errorf("%s is served but not in internal/openapi/openapi.yaml", r)
		}
	}
	for _, r := range documented {
		if !slices.Contains(served, r) {
			t.Errorf("%s is documented but not served", r)
		}
	}
	if len(served) < 50 {
		t.Errorf("only %d routes recorded; the recording of patterns is broken", len(served))
	}
}
