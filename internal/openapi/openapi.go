// Package openapi holds the service's OpenAPI 3.1 document, the project's
// API reference: openapi.yaml is written by hand, openapi.json and
// docs/api.md are generated from it (go generate ./internal/openapi), and
// the tests of this package and internal/testserver keep all three equal to
// what the service serves.
package openapi

import (
	_ "embed"
	"net/http"
	"sync"

	"github.com/botpay/botpay/internal/openapi/build"
)

//go:generate go run ./gen

// JSON is the document as served at GET /openapi.json.
//
//go:embed openapi.json
var JSON []byte

// Handler answers GET /openapi.json with the document naming baseURL, the
// service's BOTPAY_BASE_URL, as its one server, so a client generated from
// it calls the service that served it.
func Handler(baseURL string) http.HandlerFunc {
	// Made on the first request: most servers of a test run never serve it.
	document := sync.OnceValue(func() []byte {
		doc, err := WithServer(baseURL)
		if err != nil {
			panic("openapi.json: " + err.Error()) // embedded and tested: never happens
		}
		return doc
	})
	return func(w http.ResponseWriter, r *http.Request) {
		doc := document()
		h := w.Header()
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("Cache-Control", "public, max-age=300")
		h.Set("Access-Control-Allow-Origin", "*")
		w.Write(doc)
	}
}

// WithServer is the document with baseURL as its one server.
func WithServer(baseURL string) ([]byte, error) {
	doc, err := build.Parse(JSON)
	if err != nil {
		return nil, err
	}
	server := build.NewObject()
	server.Set("url", baseURL)
	server.Set("description", "This service (its BOTPAY_BASE_URL).")
	doc.Set("servers", []any{server})
	return build.JSON(doc)
}
