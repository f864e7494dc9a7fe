package livetest

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestWalletPayersDetailsReachASaleTheResumeWorkerRecords: a person pays
// from the buyer page with an e-mail and a name, then closes the tab while
// the chain has not mined the transfer. The resume worker records the sale
// once it is mined, with the e-mail and name the payment was sent with.
func TestWalletPayersDetailsReachASaleTheResumeWorkerRecords(t *testing.T) {
	forEachEngine(t, func(t *testing.T, l *live) {
		seller, url, header := stalledPayment(t, l)
		ctx, closeTab := context.WithCancel(context.Background())
		gone := make(chan struct{})
		go func() {
			defer close(gone)
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url,
				strings.NewReader(`{"buyer_email": "bea@example.com", "buyer_name": "Bea Buyer"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-PAYMENT", header)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
		pay := submitted(t, l)
		closeTab()
		<-gone
		l.node.Mine(t)
		l.node.Automine(t, true)
		if err := l.srv.App.Payments().ResumePass(context.Background(), time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		sale, err := l.srv.App.Earning().SaleByTxHash(context.Background(), pay.TxHash)
		if err != nil {
			t.Fatal(err)
		}
		if sale.BuyerEmail != "bea@example.com" || sale.BuyerName != "Bea Buyer" || sale.Method != "x402" {
			t.Fatalf("sale %+v, want the buyer's e-mail and name on an x402 sale", sale)
		}
		paidOnce(t, l, seller, 50_000)
	})
}
