package earning

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/seal"
)

// invoiceTokenPurpose names the subkey of invoice payment tokens
// (docs/decisions.md, "Invoice payment tokens").
const invoiceTokenPurpose = "invoice payment tokens v1"

// invoiceTokenBytes is the token's length before encoding: 128 bits.
const invoiceTokenBytes = 16

// InvoiceTokenKey derives the key every replica shares from the secret
// key; without a sealer (no caller does that) a random key keeps tokens
// unguessable, if not stable across restarts.
func InvoiceTokenKey(sealer *seal.Sealer) []byte {
	if sealer != nil {
		return sealer.DeriveKey(invoiceTokenPurpose)
	}
	key := make([]byte, 32)
	rand.Read(key)
	return key
}

// invoiceToken is the payment URL token of an invoice: an HMAC of its id.
func (s *Service) invoiceToken(invoiceID string) string {
	mac := hmac.New(sha256.New, s.invoiceKey)
	mac.Write([]byte(invoiceID))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:invoiceTokenBytes])
}

// WithPayToken sets the token of the invoice's payment URL.
func (s *Service) WithPayToken(inv botpay.Invoice) botpay.Invoice {
	if inv.ID != "" {
		inv.PayToken = s.invoiceToken(inv.ID)
	}
	return inv
}

// InvoiceForBuyer looks an invoice up by the reference and token a buyer
// brought. A wrong or missing token is the same not_found as an unknown
// reference, and every miss costs the client IP one of RefMissesPerHour
// attempts: reference numbers are sequential, so without the token a
// public page's invoices could be read by counting.
func (s *Service) InvoiceForBuyer(ctx context.Context, pageID, ref, token, clientIP string) (botpay.Invoice, error) {
	inv, err := s.InvoiceByRef(ctx, pageID, ref)
	if err == nil && subtle.ConstantTimeCompare([]byte(token), []byte(s.invoiceToken(inv.ID))) != 1 {
		inv, err = botpay.Invoice{}, botpay.ErrNotFound("invoice")
	}
	if isNotFound(err) {
		if lerr := s.rates.Take(ctx, Limit{Bucket: "invoice-ref-miss:" + botpay.AddressKey(clientIP), Max: s.limits.RefMissesPerHour,
			Window: time.Hour, Unannounced: true}); lerr != nil {
			return inv, lerr
		}
	}
	if err != nil {
		return inv, err
	}
	return s.WithPayToken(inv), nil
}

func isNotFound(err error) bool {
	e := botpay.AsError(err)
	return e != nil && e.Kind == botpay.KindNotFound
}
