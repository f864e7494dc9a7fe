package livetest

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// TestABuyerWaitingPastTheWriteTimeoutGetsPaymentInProgress: the node
// holds the transaction (it mines nothing) longer than the server may take
// to answer. The buyer gets 409 payment_in_progress with Retry-After
// before the write deadline, not a dropped connection; once the chain has
// mined it and the resume worker recorded it, the same payment again
// answers the sale, paid once.
func TestABuyerWaitingPastTheWriteTimeoutGetsPaymentInProgress(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		const writeTimeout = 3 * time.Second
		opts := l.options()
		opts.WriteTimeout = writeTimeout
		short := l.srv.Replica(t, opts)
		seller, url, header := stalledPayment(t, l)
		path := url[len(l.srv.URL):]

		req, _ := http.NewRequest("GET", short.URL+path, nil)
		req.Header.Set("X-PAYMENT", header)
		client := &http.Client{Timeout: 3 * writeTimeout}
		started := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("no answer after %s: %v", time.Since(started), err)
		}
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusConflict || body["error"] != botpay.CodePaymentInProgress || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("payment held by the node: %d %v (Retry-After %q), want 409 payment_in_progress with Retry-After",
				resp.StatusCode, body, resp.Header.Get("Retry-After"))
		}
		if took := time.Since(started); took >= writeTimeout {
			t.Fatalf("answered after %s, past the %s write timeout", took, writeTimeout)
		}

		l.node.Mine(t)
		l.node.Automine(t, true)
		if err := short.App.Payments().ResumePass(context.Background(), time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if code, again := call(t, short.URL, "GET", path, "", nil, "X-PAYMENT", header); code != http.StatusOK || again["status"] != "confirmed" {
			t.Fatalf("the same payment once mined: %d %v, want 200 confirmed", code, again)
		}
		paidOnce(t, l, seller, 50_000)
	})
}
