package api

import (
	"bytes"
	"io"
	"net/http"

	"github.com/botpay/botpay/internal/mcp"
)

// mcpHandler serves the Model Context Protocol endpoint: streamable HTTP,
// stateless, authenticated by the bot's API key (mcpAuth). Its tools call
// self (this same handler) in-process as the caller, so each one answers
// exactly what its endpoint answers.
func (s *Server) mcpHandler(self http.Handler) http.Handler {
	limits := s.svc.Limits()
	return mcp.HTTPHandler(self, mcp.HTTPOptions{Options: mcp.Options{Version: s.cfg.Version, Logger: s.log,
		CheckoutsPerHour: limits.CheckoutPerHour, TopupsPerHour: limits.TopupPerHour,
		InvoiceMailsPerBotPerDay: limits.InvoiceMailsPerBotPerDay, InvoiceMailsPerOwnerPerDay: limits.InvoiceMailsPerOwnerPerDay},
		Outbound: mcp.NewOutbound(s.cfg.OutboundAllowPrivate), Payment: mcp.PaymentOf(s.svc.Domain())})
}

// mcpAuth answers 401 before any MCP exchange when the bearer is not a
// valid, current API key, and hands the tools the request's id and peer
// address, so their calls are logged and attributed as this request.
func (s *Server) mcpAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := s.svc.Bots().AuthenticateBot(r.Context(), bearer(r)); err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="botpay"`)
			writeError(w, r, err)
			return
		}
		if r.Method == http.MethodPost {
			// The SDK's decoder keeps the last of duplicate members: a
			// message read one way by a reviewer or a log and another by
			// the tool ({"amount_usd":1,"amount_usd":999}) is refused.
			body, err := readBody(r)
			if err == nil {
				err = refuseDuplicateKeys(body)
			}
			if err != nil {
				writeError(w, r, err)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		r = r.Clone(r.Context())
		r.Header.Set("X-Request-Id", requestID(r))
		r.Header.Set(mcp.PeerHeader, r.RemoteAddr)
		next.ServeHTTP(w, r)
	})
}
