package e2e

import (
	"bytes"
	"mime"
	netmail "net/mail"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// receiptsTo reads what the SMTP inbox received for addr: subject and body.
func receiptsTo(t *testing.T, inbox *smtpInbox, addr string) (subjects, bodies []string) {
	t.Helper()
	for _, m := range inbox.received() {
		if len(m.To) != 1 || m.To[0] != addr {
			continue
		}
		msg, err := netmail.ReadMessage(bytes.NewReader(m.Data))
		if err != nil {
			t.Fatal(err)
		}
		subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		parts := leafParts(t, msg.Header, msg.Body)
		var body strings.Builder
		for _, p := range parts {
			body.Write(p.Body)
		}
		subjects, bodies = append(subjects, subject), append(bodies, body.String())
	}
	return subjects, bodies
}

// TestBuyersAndInvoicePayersGetOneReceiptByMail: over real SMTP, a buyer
// who gave an address and an invoice's payer each get one receipt with the
// amount, seller, item, date, method, transaction hash and receipt link;
// the same payment sent again answers its first result (the invoice is
// paid by then) and sends no second receipt.
func TestBuyersAndInvoicePayersGetOneReceiptByMail(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		inbox := startSMTP(t)
		opts := x402Opts
		opts.Mail = inbox.sender("botpay <receipts@botpay.test>")
		r := raw{t: t, srv: testserver.Start(t, d, opts)}
		seller := r.walletBot("receipt-seller", 0)
		pageID := r.page(seller, map[string]any{"title": "Field recordings"})["checkout_page_id"].(string)

		r.must(200, "POST", "/api/v1/checkout/"+pageID+"/pay/sandbox", "", map[string]any{"buyer_email": "Ada@Example.com", "buyer_name": "Ada"})
		subjects, bodies := receiptsTo(t, inbox, "ada@example.com")
		if len(bodies) != 1 || subjects[0] != "Your receipt for $0.05" {
			t.Fatalf("buyer receipts: %q", subjects)
		}
		for _, want := range []string{"receipt-seller", "Field recordings", "Method: USDC transfer", "/pay/" + pageID + "/receipt/sale_", "Date: "} {
			if !strings.Contains(bodies[0], want) {
				t.Errorf("the buyer's receipt lacks %q:\n%s", want, bodies[0])
			}
		}

		inv := r.must(201, "POST", "/api/v1/bot/invoices/create", seller.APIKey, map[string]any{"checkout_page_id": pageID,
			"recipient_name": "Globex", "recipient_email": "ap@globex.example",
			"line_items": []any{map[string]any{"description": "Mastering", "quantity": 1, "unit_price_usd": 3}}})
		path := "/api/v1/checkout/" + pageID + "/x402?" + strings.SplitN(inv["payment_url"].(string), "?", 2)[1]
		_, required := r.asked(path)
		p, _ := outsider(t, seller.Address, 3000000, time.Now().Unix()+120)
		signature := v2Signature(required, p, nil)
		for range 2 {
			if a := r.do("POST", path, "", nil, "PAYMENT-SIGNATURE", signature); a.Status != 200 {
				t.Fatalf("pay invoice: %d %s", a.Status, a.Body)
			}
		}
		// The paid invoice refuses a new authorization as it refused before
		// replays of the first one were answered.
		fresh, _ := outsider(t, seller.Address, 3000000, time.Now().Unix()+120)
		if a := r.do("POST", path, "", nil, "PAYMENT-SIGNATURE", v2Signature(required, fresh, nil)); a.Status != 409 || a.json(t)["error"] != "invoice_not_payable" {
			t.Fatalf("a new payment of the paid invoice: %d %s, want 409 invoice_not_payable", a.Status, a.Body)
		}
		_, bodies = receiptsTo(t, inbox, "ap@globex.example")
		if len(bodies) != 1 {
			t.Fatalf("the invoice payer got %d receipts for one payment sent twice, want 1", len(bodies))
		}
		for _, want := range []string{"$3.00", inv["reference_number"].(string), "Transaction hash: 0x", "Method: USDC from a wallet or an agent"} {
			if !strings.Contains(bodies[0], want) {
				t.Errorf("the invoice payer's receipt lacks %q:\n%s", want, bodies[0])
			}
		}
	})
}
