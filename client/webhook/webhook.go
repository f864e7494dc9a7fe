// Package webhook verifies botpay webhook deliveries for bot authors.
//
// Every delivery is a POST whose raw body is {event, timestamp, bot_id,
// data}, signed twice with the bot's webhook_secret:
//
//   - X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>, keyed
//     with the whole secret string as it was handed out;
//   - webhook-id, webhook-timestamp, webhook-signature: v1,<base64
//     HMAC-SHA256 of "id.timestamp.body">, exactly as the Standard Webhooks
//     specification says (keyed with the base64 decoding of the part after
//     "whsec_"), so any Standard Webhooks library verifies it too, and a
//     receiver can refuse old or replayed deliveries.
//
// A Verifier requires both: a delivery whose webhook-* headers were
// stripped is refused (ErrTimestamp), since its age cannot be checked.
//
// X-Service-Delivery (= webhook-id) is the event id, stable across retries:
// deduplicate by it. Verify against the raw bytes of the body, before any
// JSON decoding.
//
//	v := webhook.Verifier{Secret: os.Getenv("BOTPAY_WEBHOOK_SECRET")}
//	http.HandleFunc("/hooks/botpay", func(w http.ResponseWriter, r *http.Request) {
//		ev, err := v.ReadRequest(r)
//		if err != nil {
//			http.Error(w, "bad signature", http.StatusUnauthorized)
//			return
//		}
//		handle(ev) // quickly; answer 2xx
//	})
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/botpay/botpay/wire"
)

// Header names of a delivery.
const (
	HeaderSignature   = "X-Service-Signature"
	HeaderEvent       = "X-Service-Event"
	HeaderDelivery    = "X-Service-Delivery"
	HeaderWebhookID   = "Webhook-Id"
	HeaderWebhookTime = "Webhook-Timestamp"
	HeaderWebhookSig  = "Webhook-Signature"
)

// DefaultTolerance is how far webhook-timestamp may be from now.
const DefaultTolerance = 5 * time.Minute

// MaxBodyBytes caps what ReadRequest reads.
const MaxBodyBytes = 1 << 20

// Verification errors.
var (
	ErrMissingSignature = errors.New("webhook: signature header missing")
	ErrBadSignature     = errors.New("webhook: signature does not match")
	ErrTimestamp        = errors.New("webhook: timestamp missing, malformed or outside the tolerance")
)

// Event is a verified delivery: its body, wire.WebhookEvent ({event,
// timestamp, bot_id, data}), and the event id of its headers.
type Event struct {
	// ID is the event id (X-Service-Delivery): the same on every retry.
	ID string
	wire.WebhookEvent
}

// Verifier checks deliveries signed with one webhook secret.
type Verifier struct {
	// Secret is the webhook_secret from the bot's registration.
	Secret string
	// Tolerance bounds the age (and clock skew) of webhook-timestamp;
	// DefaultTolerance when zero.
	Tolerance time.Duration
	// AllowMissingTimestamp accepts a delivery that carries X-Service-Signature
	// but none of the Standard Webhooks headers. Such a delivery's age cannot
	// be checked, so a captured one can be replayed at any later time; only
	// set it behind a proxy that strips the webhook-* headers. By default
	// every accepted delivery has a signed timestamp within Tolerance.
	AllowMissingTimestamp bool
	// Now replaces the clock (tests).
	Now func() time.Time
}

// Verify checks the headers of a delivery against its raw body:
// X-Service-Signature, and the Standard Webhooks signature with its
// timestamp tolerance (ErrTimestamp when those headers are all missing,
// unless AllowMissingTimestamp).
func (v Verifier) Verify(h http.Header, body []byte) error {
	if err := VerifySignature(v.Secret, body, h.Get(HeaderSignature)); err != nil {
		return err
	}
	id, ts, sig := h.Get(HeaderWebhookID), h.Get(HeaderWebhookTime), h.Get(HeaderWebhookSig)
	if id == "" && ts == "" && sig == "" {
		if v.AllowMissingTimestamp {
			return nil
		}
		return ErrTimestamp
	}
	now := time.Now()
	if v.Now != nil {
		now = v.Now()
	}
	tolerance := v.Tolerance
	if tolerance == 0 {
		tolerance = DefaultTolerance
	}
	return VerifyStandard(v.Secret, id, ts, sig, body, now, tolerance)
}

// Parse verifies a delivery and decodes its body.
func (v Verifier) Parse(h http.Header, body []byte) (*Event, error) {
	if err := v.Verify(h, body); err != nil {
		return nil, err
	}
	var ev Event
	if err := json.Unmarshal(body, &ev.WebhookEvent); err != nil {
		return nil, fmt.Errorf("webhook: undecodable body: %w", err)
	}
	ev.ID = h.Get(HeaderDelivery)
	if ev.ID == "" {
		ev.ID = h.Get(HeaderWebhookID)
	}
	return &ev, nil
}

// ReadRequest reads (at most MaxBodyBytes of) the request body, verifies and
// decodes it.
func (v Verifier) ReadRequest(r *http.Request) (*Event, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
	if err != nil {
		return nil, fmt.Errorf("webhook: reading body: %w", err)
	}
	if len(body) > MaxBodyBytes {
		return nil, errors.New("webhook: body too large")
	}
	return v.Parse(r.Header, body)
}

// VerifySignature checks an X-Service-Signature value ("sha256=<hex>") in
// constant time.
func VerifySignature(secret string, body []byte, header string) error {
	hexSig, ok := strings.CutPrefix(strings.TrimSpace(header), "sha256=")
	if header == "" {
		return ErrMissingSignature
	}
	got, err := hex.DecodeString(hexSig)
	if !ok || err != nil {
		return ErrBadSignature
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	if !hmac.Equal(got, m.Sum(nil)) {
		return ErrBadSignature
	}
	return nil
}

// VerifyStandard checks Standard Webhooks headers: the timestamp within
// tolerance of now, and one of the space-separated "v1,<base64>"
// signatures matching HMAC-SHA256(StandardKey(secret), id.timestamp.body).
func VerifyStandard(secret, id, timestamp, signatures string, body []byte, now time.Time, tolerance time.Duration) error {
	return verifyStandardKey(StandardKey(secret), id, timestamp, signatures, body, now, tolerance)
}

// StandardKey is the Standard Webhooks HMAC key of a secret: the base64
// decoding of the part after "whsec_" (botpay's "whsec_" + 48 hex
// characters decode to 36 bytes). A secret without the prefix, or whose
// rest is not base64, is used as it is.
func StandardKey(secret string) []byte {
	rest, ok := strings.CutPrefix(secret, "whsec_")
	if !ok {
		return []byte(secret)
	}
	key, err := base64.StdEncoding.DecodeString(rest)
	if err != nil || len(key) == 0 {
		return []byte(secret)
	}
	return key
}

func verifyStandardKey(key []byte, id, timestamp, signatures string, body []byte, now time.Time, tolerance time.Duration) error {
	if id == "" || signatures == "" {
		return ErrMissingSignature
	}
	unix, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return ErrTimestamp
	}
	if d := now.Sub(time.Unix(unix, 0)); d > tolerance || d < -tolerance {
		return ErrTimestamp
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + timestamp + "."))
	m.Write(body)
	want := m.Sum(nil)
	for _, s := range strings.Fields(signatures) {
		version, sig, ok := strings.Cut(s, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return ErrBadSignature
}
