package notifications

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// Header names of a delivery (docs/decisions.md).
const (
	HeaderSignature   = "X-Service-Signature"
	HeaderEvent       = "X-Service-Event"
	HeaderDelivery    = "X-Service-Delivery"
	HeaderWebhookID   = "webhook-id"
	HeaderWebhookTime = "webhook-timestamp"
	HeaderWebhookSig  = "webhook-signature"
)

// Signature is the X-Service-Signature value: "sha256=" and the hex
// HMAC-SHA256 of the raw body (GitHub's X-Hub-Signature-256 scheme).
func Signature(key, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// StandardSignature is the Standard Webhooks webhook-signature value:
// "v1," and the base64 HMAC-SHA256 of "id.timestamp.body".
func StandardSignature(key []byte, id string, unix int64, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + strconv.FormatInt(unix, 10) + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// payload is the delivery body; field order is the documented one.
type payload struct {
	Event     string          `json:"event"`
	Timestamp string          `json:"timestamp"`
	BotID     string          `json:"bot_id"`
	Data      json.RawMessage `json:"data"`
}

// Body renders the exact delivery body {event, timestamp, bot_id, data}. It
// depends only on the stored event, so every retry sends the same bytes.
func Body(eventType, botID string, at time.Time, data json.RawMessage) ([]byte, error) {
	if len(data) == 0 {
		data = json.RawMessage("{}")
	}
	return json.Marshal(payload{Event: eventType, Timestamp: botpay.FormatTime(at), BotID: botID, Data: data})
}

// StandardKey is the Standard Webhooks HMAC key of a secret: the base64
// decoding of the part after "whsec_", as every stock library derives it.
// Our secrets are "whsec_" + 48 hex characters, which is also valid base64
// (36 bytes), so the secrets handed out before keep working unchanged.
// Anything that does not decode (no secret of ours) falls back to the
// string's bytes rather than signing with an empty key.
func StandardKey(secret []byte) []byte {
	rest, ok := bytes.CutPrefix(secret, []byte(botpay.WebhookSecretPrefix))
	if !ok {
		return secret
	}
	key, err := base64.StdEncoding.DecodeString(string(rest))
	if err != nil || len(key) == 0 {
		return secret
	}
	return key
}

// StandardSignatures is the webhook-signature value: the Standard Webhooks
// signature keyed with StandardKey, then the one keyed with the secret
// string's bytes that SDKs released before the correction verify
// (docs/decisions.md). Receivers accept a delivery when any listed
// signature matches, so both kinds of receiver verify the same header.
func StandardSignatures(secret []byte, id string, unix int64, body []byte) string {
	return StandardSignature(StandardKey(secret), id, unix, body) + " " + StandardSignature(secret, id, unix, body)
}

// SignedHeaders sets the headers of one attempt. X-Service-Signature is keyed
// with the bytes of the webhook_secret string as it was handed out;
// webhook-signature follows the Standard Webhooks specification
// (docs/decisions.md); the Standard Webhooks timestamp is the attempt's own.
func SignedHeaders(h http.Header, secret []byte, eventID, eventType string, body []byte, now time.Time) {
	unix := now.Unix()
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "botpay-webhooks/1")
	h.Set(HeaderSignature, Signature(secret, body))
	h.Set(HeaderEvent, eventType)
	h.Set(HeaderDelivery, eventID)
	h[HeaderWebhookID] = []string{eventID}
	h[HeaderWebhookTime] = []string{strconv.FormatInt(unix, 10)}
	h[HeaderWebhookSig] = []string{StandardSignatures(secret, eventID, unix, body)}
}
