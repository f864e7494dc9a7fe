package api

import (
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
)

// The sandbox's payment endpoints: in live mode nothing may record a sale
// that nobody paid for, so they do not exist.
const (
	routePayCheckoutSandbox = "POST /api/v1/checkout/{id}/pay/sandbox"
	routePayLinkSandbox     = "POST /api/v1/payment-links/{id}/pay/sandbox"
	// routeBuyerForm is the buyer page's form, which pays through the
	// sandbox too (the web package leaves it out in live mode).
	routeBuyerForm = "POST /pay/{id}"
)

// SandboxOnlyRoutes lists every route that exists only in the sandbox.
var SandboxOnlyRoutes = []string{routePayCheckoutSandbox, routePayLinkSandbox, routeBuyerForm}

// notRouted answers a sandbox-only route in live mode exactly as a path
// that was never routed: 404 not_found. Registering the routes, rather than
// leaving them out, keeps a POST next to a routed GET from answering 405.
func notRouted(w http.ResponseWriter, r *http.Request) {
	writeError(w, r, botpay.Errorf(botpay.KindNotFound, botpay.CodeNotFound, "no route for %s %s", r.Method, r.URL.Path))
}
