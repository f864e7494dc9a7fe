package api

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

type ctxKey int

const (
	requestIDKey ctxKey = iota
	botKey
	ownerKey
	clientIPKey
	loggerKey
	errCodeKey // *string: writeError notes the code there for the metrics
	outcomeKey // *outcomeFlag: writeError notes an unknown outcome there
)

// loggerOf is the server's logger, carried in the request context so that
// free functions such as writeError log where the server logs.
func loggerOf(r *http.Request) *slog.Logger {
	if l, ok := r.Context().Value(loggerKey).(*slog.Logger); ok {
		return l
	}
	return slog.New(slog.DiscardHandler)
}

func requestID(r *http.Request) string {
	id, _ := r.Context().Value(requestIDKey).(string)
	return id
}

// ClientIP is the client address the request was attributed to (after
// trusted-proxy resolution); pages on the same server rate-limit by it.
func ClientIP(r *http.Request) string { return clientIP(r) }

func clientIP(r *http.Request) string {
	ip, _ := r.Context().Value(clientIPKey).(string)
	return ip
}

var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// statusRecorder remembers the status for the access log, and adds the
// RateLimit headers of the limits the request was counted against.
type statusRecorder struct {
	http.ResponseWriter
	status  int
	bytes   int
	errCode string // the error code of an error answer, for the metrics
	limits  botpay.LimitNotes
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
		announceLimits(s.Header(), &s.limits)
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
		announceLimits(s.Header(), &s.limits)
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// observe assigns the request id and client IP, caps the body, recovers
// panics and writes one access-log line. Only the path is logged, never the
// query (claim tokens travel there) or any header.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := r.Header.Get("X-Request-Id")
		if !requestIDPattern.MatchString(id) {
			id = botpay.NewID("req_")
		}
		w.Header().Set("X-Request-Id", id)
		securityHeaders(w.Header(), s.hsts)
		ctx := context.WithValue(r.Context(), requestIDKey, id)
		ctx = context.WithValue(ctx, clientIPKey, s.clientIP(r))
		ctx = context.WithValue(ctx, loggerKey, s.log)
		rec := &statusRecorder{ResponseWriter: w}
		ctx = context.WithValue(ctx, errCodeKey, &rec.errCode)
		ctx = botpay.WithLimitNotes(ctx, &rec.limits)
		r = r.WithContext(ctx)
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.ErrorContext(ctx, "panic", "request_id", id, "path", r.URL.Path, "panic", p)
				if rec.status == 0 {
					writeError(rec, r, botpay.Errorf(botpay.KindInternal, botpay.CodeInternal, "panic"))
				}
			}
			took := time.Since(start)
			s.log.InfoContext(ctx, "request", "request_id", id, "method", r.Method, "path", r.URL.Path,
				"status", rec.status, "bytes", rec.bytes, "duration_ms", took.Milliseconds(), "client_ip", clientIP(r))
			s.obs.Request(r.Pattern, r.Method, rec.status, took)
			s.observeDecision(r.Pattern, rec)
		}()
		next.ServeHTTP(rec, r)
	})
}

// securityHeaders go on every answer, JSON included: browsers must not
// sniff a JSON answer into HTML, and when the service is public over HTTPS
// they must never reach it over plain HTTP again.
func securityHeaders(h http.Header, hsts bool) {
	h.Set("X-Content-Type-Options", "nosniff")
	if hsts {
		h.Set("Strict-Transport-Security", "max-age=31536000")
	}
}

// clientIP is the socket peer, or, when the peer is a trusted proxy, the
// right-most address in X-Forwarded-For that is not itself trusted.
func (s *Server) clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !s.trusted(peer) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		if !s.trusted(a) {
			return a.Unmap().String()
		}
	}
	return host
}

func (s *Server) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// jsonFallbacks answers unknown routes and wrong methods in JSON: the mux
// reports them with an empty pattern, and its own plain-text answer is
// replaced, keeping the Allow header it computed.
func jsonFallbacks(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		probe := &headerProbe{header: http.Header{}}
		h.ServeHTTP(probe, r)
		switch probe.status {
		case http.StatusMethodNotAllowed:
			w.Header().Set("Allow", probe.header.Get("Allow"))
			writeError(w, r, botpay.Errorf(botpay.KindMethodNotAllowed, botpay.CodeMethodNotAllowed, "%s is not allowed here; allowed: %s", r.Method, probe.header.Get("Allow")))
		case http.StatusMovedPermanently, http.StatusPermanentRedirect, http.StatusTemporaryRedirect, http.StatusFound:
			for k, v := range probe.header {
				w.Header()[k] = v
			}
			w.WriteHeader(probe.status)
		default:
			writeError(w, r, botpay.Errorf(botpay.KindNotFound, botpay.CodeNotFound, "no route for %s %s", r.Method, r.URL.Path))
		}
	})
}

// headerProbe captures what the mux's fallback handler would answer.
type headerProbe struct {
	header http.Header
	status int
}

func (p *headerProbe) Header() http.Header         { return p.header }
func (p *headerProbe) Write(b []byte) (int, error) { return len(b), nil }
func (p *headerProbe) WriteHeader(code int)        { p.status = code }
