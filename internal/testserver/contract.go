package testserver

import (
	"net/http"
	"testing"

	"github.com/botpay/botpay/internal/openapi/contract"
)

// checkContract puts the OpenAPI check in front of h: every request and
// answer of every test that uses a test server must match the document
// (internal/openapi), or the test fails.
func checkContract(t testing.TB, h http.Handler) http.Handler {
	c, err := contract.Default()
	if err != nil {
		t.Fatalf("openapi: %v", err)
	}
	return c.Middleware(func(problem string) { t.Errorf("openapi contract: %s", problem) }, h)
}
