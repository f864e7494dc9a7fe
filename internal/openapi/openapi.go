// Package openapi holds the service's OpenAPI 3.1 document, the project's
// API reference: openapi.yaml is written by hand, openapi.json and
// docs/api.md are generated from it (go generate ./internal/openapi), and
// the tests of this package and internal/testserver keep all three equal to
// what the service serves.
package openapi

import (
	_ "embed"
	"net/http"
)

//go:generate go run ./gen

// JSON is the document as served at GET /openapi.json.
//
//go:embed openapi.json
var JSON []byte

// Serve answers GET /openapi.json.
func Serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("Access-Control-Allow-Origin", "*")
	w.Write(JSON)
}
