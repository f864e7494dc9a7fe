package events

import (
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

// SignedHeaders sets the headers of one attempt. Both HMACs are keyed with
// the bytes of the webhook_secret string as it was handed out (docs/decisions.md);
// the Standard Webhooks timestamp is the attempt's own.
func SignedHeaders(h http.Header, secret []byte, eventID, eventType string, body []byte, now time.Time) {
	unix := now.Unix()
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "botpay-webhooks/1")
	h.Set(HeaderSignature, Signature(secret, body))
	h.Set(HeaderEvent, eventType)
	h.Set(HeaderDelivery, eventID)
	h[HeaderWebhookID] = []string{eventID}
	h[HeaderWebhookTime] = []string{strconv.FormatInt(unix, 10)}
	h[HeaderWebhookSig] = []string{StandardSignature(secret, eventID, unix, body)}
}
