package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/botpay/botpay/internal/botpay"
)

// anonymousScope scopes keys of unauthenticated requests by client IP.
const anonymousScope = ""

const idempotencyHeader = "Idempotency-Key"

type storedResponse struct {
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
	Body        []byte `json:"body"`
}

// idempotent replays the first response of a POST that carries an
// Idempotency-Key (same key and same body within 24 hours), refuses the same
// key with another body, and stores responses sealed, because a
// registration's answer holds its API key. Server errors and rate limits
// are not stored, so retrying them runs the request again.
func (s *Server) idempotent(scope string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get(idempotencyHeader)
		if r.Method != http.MethodPost || key == "" {
			next.ServeHTTP(w, r)
			return
		}
		if len(key) > 255 || !printableASCII(key) {
			writeError(w, r, botpay.ValidationError(map[string]string{idempotencyHeader: "must be 1-255 printable ASCII characters"}))
			return
		}
		body, err := readBody(r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		scope := scope // per request: never modify the captured value
		if scope == anonymousScope {
			scope = "ip:" + clientIP(r)
		}
		scope += " " + r.URL.Path
		sum := sha256.Sum256(body)
		replay, err := s.svc.BeginIdempotent(r.Context(), scope, key, hex.EncodeToString(sum[:]))
		if err != nil {
			writeError(w, r, err)
			return
		}
		aad := []byte(scope + "\x00" + key)
		if replay != nil {
			s.replay(w, r, replay, aad)
			return
		}
		rec := &responseCapture{header: http.Header{}}
		outcome := &outcomeFlag{}
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), outcomeKey, outcome)))
		ctx := context.WithoutCancel(r.Context())
		switch {
		case outcome.unknown:
			err = s.svc.HoldIdempotent(ctx, scope, key)
		case rec.status >= 500 || rec.status == http.StatusTooManyRequests:
			err = s.svc.AbandonIdempotent(ctx, scope, key)
		default:
			resp, _ := json.Marshal(storedResponse{Status: rec.status, ContentType: rec.header.Get("Content-Type"), Body: rec.body.Bytes()})
			err = s.svc.FinishIdempotent(ctx, scope, key, rec.status, s.cfg.Sealer.Seal(resp, aad))
		}
		if err != nil {
			s.log.ErrorContext(ctx, "idempotency record not saved", "request_id", requestID(r), "err", err)
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		w.Write(rec.body.Bytes())
	})
}

func (s *Server) replay(w http.ResponseWriter, r *http.Request, sealed, aad []byte) {
	plain, err := s.cfg.Sealer.Open(sealed, aad)
	var resp storedResponse
	if err == nil {
		err = json.Unmarshal(plain, &resp)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", resp.ContentType)
	w.Header().Set("Idempotent-Replayed", "true")
	w.Header().Set("Content-Length", strconv.Itoa(len(resp.Body)))
	w.WriteHeader(resp.Status)
	w.Write(resp.Body)
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// responseCapture buffers a response so it can be stored before it is sent.
type responseCapture struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (c *responseCapture) Header() http.Header { return c.header }
func (c *responseCapture) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return c.body.Write(b)
}
func (c *responseCapture) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
}
