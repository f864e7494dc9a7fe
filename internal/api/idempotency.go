package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// anonymousScope scopes keys of unauthenticated requests by client IP.
const anonymousScope = ""

const idempotencyHeader = "Idempotency-Key"

type storedResponse struct {
	Status      int    `json:"status"`
	ContentType string `json:"content_type"`
	Body        []byte `json:"body"`
	// Holder is the digest of the credential of the first request (empty
	// for a request without one, whose scope is its client address);
	// SecretUntil, in Unix milliseconds, is set when the answer carries a
	// secret shown once: it is replayed only to Holder and until then.
	Holder      string `json:"holder,omitempty"`
	SecretUntil int64  `json:"secret_until,omitempty"`
	// NeverReplayed answers (a rotation's new key) are refused to every
	// retry: a superseded key must not learn its successor.
	NeverReplayed bool `json:"never_replayed,omitempty"`
}

// secretReplayWindow is how long the first caller of a request whose
// answer carries a secret shown once may have it replayed (a client
// retrying after a lost answer retries within seconds).
const secretReplayWindow = 10 * time.Minute

// errSecretNotReplayed answers a retry that may not have a stored answer:
// the key is spent, as if it had come with another body.
var errSecretNotReplayed = botpay.Errorf(botpay.KindConflict, botpay.CodeIdempotencyReused,
	"this Idempotency-Key was already used, and its answer carried a secret shown once: it is not repeated; use a new key")

// credentialDigest names the credential a request carries (a bearer token
// or the dashboard's session cookie), or "" when it carries none.
func credentialDigest(r *http.Request) string {
	credential := bearer(r)
	if credential == "" {
		if c, err := r.Cookie(sessionCookie); err == nil {
			credential = c.Value
		}
	}
	if credential == "" {
		return ""
	}
	return botpay.Digest(credential)
}

// idempotent replays the first response of a POST that carries an
// Idempotency-Key (same key and same body within 24 hours), refuses the same
// key with another body, and stores responses sealed, because a
// registration's answer holds its API key. Server errors and rate limits
// are not stored, so retrying them runs the request again. An answer that
// carries a secret shown once is replayed only to the same credential (or,
// without one, the same client address, which scopes the key) within
// secretReplayWindow; a rotation's is never replayed.
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
		replay, err := s.svc.Idempotency().Begin(r.Context(), scope, key, hex.EncodeToString(sum[:]))
		if err != nil {
			writeError(w, r, err)
			return
		}
		aad := []byte(scope + "\x00" + key)
		if replay != nil {
			s.replay(w, r, replay.SealedResponse, aad)
			return
		}
		rec := &responseCapture{header: http.Header{}}
		outcome := &outcomeFlag{}
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), outcomeKey, outcome)))
		s.keep(r, rec, outcome, scope, key, aad)
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		w.Write(rec.body.Bytes())
	})
}

// keep records the outcome of the first request of (scope, key).
func (s *Server) keep(r *http.Request, rec *responseCapture, outcome *outcomeFlag, scope, key string, aad []byte) {
	ctx := context.WithoutCancel(r.Context())
	var err error
	switch {
	case outcome.unknown:
		err = s.svc.Idempotency().Hold(ctx, scope, key)
	case rec.status >= 500 || rec.status == http.StatusTooManyRequests:
		err = s.svc.Idempotency().Abandon(ctx, scope, key)
	default:
		stored := storedResponse{Status: rec.status, ContentType: rec.header.Get("Content-Type"), Body: rec.body.Bytes(),
			Holder: credentialDigest(r), NeverReplayed: outcome.neverReplayed}
		if outcome.secret {
			stored.SecretUntil = s.svc.Now().Add(secretReplayWindow).UnixMilli()
		}
		if stored.NeverReplayed {
			stored.Body, stored.ContentType = nil, "" // the new key is not kept, even sealed
		}
		resp, _ := json.Marshal(stored)
		err = s.svc.Idempotency().Finish(ctx, scope, key, rec.status, s.cfg.Sealer.Seal(resp, aad))
	}
	if err != nil {
		s.log.ErrorContext(ctx, "idempotency record not saved", "request_id", requestID(r), "err", err)
	}
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
	if !s.mayReplay(r, resp) {
		writeError(w, r, errSecretNotReplayed)
		return
	}
	w.Header().Set("Content-Type", resp.ContentType)
	w.Header().Set("Idempotent-Replayed", "true")
	w.Header().Set("Content-Length", strconv.Itoa(len(resp.Body)))
	w.WriteHeader(resp.Status)
	w.Write(resp.Body)
}

// mayReplay says whether this retry may have the stored answer.
func (s *Server) mayReplay(r *http.Request, resp storedResponse) bool {
	if resp.NeverReplayed {
		return false
	}
	if resp.SecretUntil == 0 {
		return true
	}
	holder := credentialDigest(r)
	return s.svc.Now().UnixMilli() < resp.SecretUntil &&
		subtle.ConstantTimeCompare([]byte(holder), []byte(resp.Holder)) == 1
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
