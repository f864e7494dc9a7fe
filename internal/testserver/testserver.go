// Package testserver starts the whole botpay HTTP service on a real
// httptest server over a test database, for API and end-to-end tests. Mail
// goes to memory so tests can read it.
package testserver

import (
	"crypto/rand"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/api"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/web"
)

// Server is a running service.
type Server struct {
	URL    string
	DB     *storetest.DB
	Store  *store.Store
	Mail   *mail.Memory
	Sealer *seal.Sealer
	Key    []byte
	App    *app.Service
	HTTP   *httptest.Server
	// Handler is the service's handler; HTTP serves it behind the check of
	// every exchange against the OpenAPI document.
	Handler *api.Handler
	// Dispatcher is set when Options.Deliver is.
	Dispatcher *notifications.Dispatcher
	Tunnels    *notifications.Hub
}

// Options tune a Server; the zero value is the service's defaults.
type Options struct {
	Clock  botpay.Clock
	Limits app.Limits
	// DB reuses an existing database (a second replica); nil makes one.
	DB *storetest.DB
	// Key is the sealing key; nil draws one. Replicas must share it.
	Key []byte
	// Mail replaces the in-memory sender (for example with an SMTP sender
	// to a server the test runs); Server.Mail then stays empty.
	Mail mail.Sender
	// WebhookGuard refuses internal callback URLs (and internal resources
	// of the MCP tool pay_x402_resource) as production does. Off by
	// default, so tests can deliver to local receivers
	// (BOTPAY_WEBHOOK_ALLOW_PRIVATE).
	WebhookGuard bool
	// Deliver runs an event dispatcher beside the server, tuned by Events
	// (fast polling unless set).
	Deliver bool
	Events  notifications.Config
	// Logger receives the service's logs; nil discards them.
	Logger *slog.Logger
	// Settler replaces the sandbox x402 settler (in live mode, without
	// one, every x402 payment is refused).
	Settler settle.Settler
	// Chain settles x402 payments on a real chain (and implies Live).
	Chain *settle.Chain
	// Live starts the service in live mode (BOTPAY_MODE=live).
	Live bool
	// ResourceHTTP replaces the client that reads resources' 402 answers
	// when a signing request is bound to its recipient.
	ResourceHTTP *http.Client
	// Observer counts requests and decisions (metrics); nil counts nothing.
	Observer api.Observer
	// TrustedProxies lets a test name its client address in
	// X-Forwarded-For (127.0.0.0/8 is the test client).
	TrustedProxies []netip.Prefix
	// ExplorerURL is BOTPAY_X402_EXPLORER_URL (receipts link transactions).
	ExplorerURL string
	// WriteTimeout is the HTTP server's write timeout, which the service
	// answers within (0: none, as httptest serves).
	WriteTimeout time.Duration
}

// testSignupsPerHour lifts the sign-up limit (10 per client IP) for tests,
// which sign many owners up from one address; tests of the limit set it.
const testSignupsPerHour = 10000

// Start runs the service on dialect until the test ends.
func Start(t testing.TB, dialect store.Dialect, opts Options) *Server {
	t.Helper()
	db := opts.DB
	var st *store.Store
	if db == nil {
		db = storetest.Open(t, dialect, opts.Clock)
		st = db.Store
	} else {
		st = db.OpenAnother(t)
	}
	key := opts.Key
	if key == nil {
		key = make([]byte, 32)
		rand.Read(key)
	}
	sealer, err := seal.New(key)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{DB: db, Store: st, Mail: &mail.Memory{}, Sealer: sealer, Key: key}
	// The handler needs the server's URL; it is set before Start, since
	// connection goroutines read it without synchronisation.
	s.HTTP = httptest.NewUnstartedServer(nil)
	s.URL = "http://" + s.HTTP.Listener.Addr().String()
	var sender mail.Sender = s.Mail
	if opts.Mail != nil {
		sender = opts.Mail
	}
	limits := opts.Limits
	if limits.SignupPerHour == 0 {
		limits.SignupPerHour = testSignupsPerHour
	}
	s.App = app.New(app.Config{Store: st, Sealer: sealer, Mail: sender, BaseURL: s.URL, Limits: limits,
		WebhookAllowPrivate: !opts.WebhookGuard, Logger: opts.Logger, Settler: opts.Settler, Chain: opts.Chain,
		Live: opts.Live || opts.Chain != nil, ResourceHTTP: opts.ResourceHTTP, ExplorerURL: opts.ExplorerURL,
		WriteTimeout: opts.WriteTimeout})
	pages := web.New(s.App, nil, api.ClientIP)
	s.Tunnels = notifications.NewHub(st.Kernel())
	s.Handler = api.New(s.App, api.Config{Sealer: sealer, Version: "test", Pages: pages.Mount,
		Tunnel: s.Tunnels, Logger: opts.Logger, Observer: opts.Observer, OutboundAllowPrivate: !opts.WebhookGuard,
		TrustedProxies: opts.TrustedProxies})
	s.HTTP.Config.Handler = checkContract(t, s.Handler)
	s.HTTP.Config.WriteTimeout = opts.WriteTimeout
	s.HTTP.Start()
	t.Cleanup(s.HTTP.Close)
	if opts.Deliver {
		s.startDispatcher(t, opts)
	}
	return s
}

// Replica starts a second server on the same database with the same key,
// as a second replica behind a load balancer would be.
func (s *Server) Replica(t testing.TB, opts Options) *Server {
	t.Helper()
	opts.DB = s.DB
	opts.Key = s.Key
	return Start(t, s.Store.Dialect(), opts)
}
