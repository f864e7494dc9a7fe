package webhook_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"

	"github.com/botpay/botpay/client/webhook"
)

// A bot's webhook handler verifies every delivery with its webhook_secret
// before acting on it, and answers 2xx quickly.
func ExampleVerifier_ReadRequest() {
	v := webhook.Verifier{Secret: "whsec_example"}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ev, err := v.ReadRequest(r)
		if err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		fmt.Println("verified", ev.Event, "for", ev.BotID)
		w.WriteHeader(http.StatusNoContent)
	})

	// What botpay sends: the raw body signed with HMAC-SHA256 under the secret,
	// and the Standard Webhooks headers, whose signed timestamp lets the
	// verifier refuse a replayed delivery.
	body := `{"event":"wallet.funded","timestamp":"2026-11-21T09:30:00.000Z","bot_id":"bot_0123456789abcdef",` +
		`"data":{"wallet_id":"w_1","amount":50,"currency":"USD","new_balance":50}}`
	mac := hmac.New(sha256.New, []byte("whsec_example"))
	io.WriteString(mac, body)
	id, ts := "evt_0123456789abcdef", strconv.FormatInt(time.Now().Unix(), 10)
	standard := hmac.New(sha256.New, []byte("whsec_example"))
	io.WriteString(standard, id+"."+ts+"."+body)
	for _, signature := range []string{"sha256=" + hex.EncodeToString(mac.Sum(nil)), "sha256=00"} {
		req := httptest.NewRequest("POST", "/hooks/botpay", strings.NewReader(body))
		req.Header.Set(webhook.HeaderSignature, signature)
		req.Header.Set("X-Service-Event", "wallet.funded")
		req.Header.Set(webhook.HeaderWebhookID, id)
		req.Header.Set(webhook.HeaderWebhookTime, ts)
		req.Header.Set(webhook.HeaderWebhookSig, "v1,"+base64.StdEncoding.EncodeToString(standard.Sum(nil)))
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		fmt.Println(rec.Code)
	}
	// Output:
	// verified wallet.funded for bot_0123456789abcdef
	// 204
	// 401
}
