package api

import (
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/skills"
	"github.com/botpay/botpay/wire"
)

// Config holds what the HTTP layer needs beyond the use cases.
type Config struct {
	TrustedProxies []netip.Prefix
	Sealer         *seal.Sealer // seals stored idempotent responses
	Logger         *slog.Logger
	Version        string
	// Pages mounts server-rendered pages (claim page, later the dashboard
	// and buyer pages) on the same mux; may be nil.
	Pages func(mux Mux)
	// Skills is the vendor catalogue; nil serves the embedded one.
	Skills *skills.Catalogue
	// Tunnel relays managed-tunnel deliveries; nil leaves the tunnel
	// routes out.
	Tunnel *notifications.Hub
	// OutboundAllowPrivate lets the MCP tool pay_x402_resource fetch
	// loopback and private addresses (BOTPAY_WEBHOOK_ALLOW_PRIVATE).
	OutboundAllowPrivate bool
	// Observer counts requests and decisions (metrics); nil counts nothing.
	Observer Observer
}

// Server routes HTTP requests to the use cases.
type Server struct {
	svc *app.Service
	cfg Config
	log *slog.Logger
	mux *router
	obs Observer
	// cursors issues and checks the cursors of every list.
	cursors cursorCodec
	// hsts: the base URL is https, so answers carry Strict-Transport-Security.
	hsts bool
}

// Mux is where routes are registered (the pages of internal/web too): an
// alias of an interface literal, identical to web.Mux.
type Mux = interface {
	Handle(pattern string, h http.Handler)
	HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request))
}

// router is the ServeMux with a record of the patterns registered on it,
// so that a test can compare the routes served with the routes of the
// OpenAPI document (internal/openapi).
type router struct {
	*http.ServeMux
	patterns []string
	// edge checks the path values and query of the API's own routes
	// (checkedInput); the pages check theirs themselves and answer HTML.
	edge func(pattern string, h http.Handler) http.Handler
}

func (m *router) Handle(pattern string, h http.Handler) {
	m.patterns = append(m.patterns, pattern)
	if m.edge != nil {
		h = m.edge(pattern, h)
	}
	m.ServeMux.Handle(pattern, h)
}

func (m *router) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	m.Handle(pattern, http.HandlerFunc(h))
}

// Handler is the service's HTTP handler.
type Handler struct {
	http.Handler
	patterns []string
}

// Patterns lists the ServeMux patterns the handler serves ("GET /pay/{id}").
func (h *Handler) Patterns() []string { return append([]string(nil), h.patterns...) }

// New builds the full HTTP handler.
func New(svc *app.Service, cfg Config) *Handler {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{svc: svc, cfg: cfg, log: log, mux: &router{ServeMux: http.NewServeMux(), edge: checkedInput}, obs: cfg.Observer,
		cursors: newCursorCodec(cfg.Sealer), hsts: strings.HasPrefix(svc.BaseURL(), "https://")}
	if s.obs == nil {
		s.obs = noObserver{}
	}
	handler := &Handler{}
	s.routes(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	if cfg.Pages != nil {
		s.mux.edge = nil
		cfg.Pages(s.mux)
		s.mux.edge = checkedInput
	}
	handler.Handler, handler.patterns = s.observe(jsonFallbacks(s.mux.ServeMux)), s.mux.patterns
	return handler
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, wire.HealthzResponse{Status: "ok", Version: s.cfg.Version})
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if err := s.svc.Ping(r.Context()); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "error": botpay.CodeDatabaseUnreachable})
		return
	}
	if err := s.svc.Payments().ChainReady(r.Context()); err != nil {
		// A load balancer takes a replica whose chain cannot settle out of
		// rotation; the failed check tells the operator what to fix.
		check, detail := settle.CheckNode, err.Error()
		var notReady *settle.NotReady
		if errors.As(err, &notReady) {
			check, detail = notReady.Check, notReady.Detail
		}
		s.log.WarnContext(r.Context(), "not ready: the chain check failed", "check", check, "detail", detail)
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "error": botpay.CodeChainUnavailable,
			"check": check, "message": detail})
		return
	}
	writeJSON(w, http.StatusOK, wire.ReadyzResponse{Status: "ready"})
}
