package mcp

import (
	"net/http"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// PeerHeader carries, from the authenticating middleware to the tools, the
// socket address of the request to /mcp; the middleware sets it on every
// request (overwriting what a client sent).
const PeerHeader = "X-Botpay-Mcp-Peer"

// HTTPOptions configure the /mcp endpoint.
type HTTPOptions struct {
	Options
	Outbound Outbound
	Payment  Payment
}

// HTTPHandler serves MCP over streamable HTTP, stateless: one server, built
// once, answers every POST, and each tool call runs as the caller of its own
// request, calling handler (the service itself) in-process with the
// caller's key, peer address and request id. Nothing is kept between
// requests, so any replica answers any request. JSON answers (no event
// streams) keep load balancers simple; GET and DELETE are refused with
// 405, as the protocol allows for a server without streams.
//
// The caller must be authenticated before this handler runs (the key is
// checked again by every call of the bot API). DNS-rebinding protection is
// off: it guards unauthenticated local servers, while every request here
// carries the bot's key, and a reverse proxy on the same host would be
// refused by it.
func HTTPHandler(handler http.Handler, o HTTPOptions) http.Handler {
	resolve := func(extra *sdk.RequestExtra) *Deps {
		var h http.Header
		if extra != nil {
			h = extra.Header
		}
		caller := Caller{APIKey: bearer(h), RemoteAddr: h.Get(PeerHeader), ForwardedFor: h.Values("X-Forwarded-For"),
			RequestID: h.Get("X-Request-Id")}
		return &Deps{API: InProcessAPI(handler, caller), Outbound: o.Outbound, Payment: o.Payment}
	}
	server := NewServer(resolve, o.Options)
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: o.Logger, DisableLocalhostProtection: true})
}

// bearer is the token of "Authorization: Bearer <token>".
func bearer(h http.Header) string {
	scheme, token, ok := strings.Cut(h.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
