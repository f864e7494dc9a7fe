package payments

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/validate"
	"github.com/botpay/botpay/internal/x402"
)

// X402Tolerance is the clock skew allowed at both ends of an
// authorization's validity window; a signature stays reserved as long
// (signatureReservedUntil).
const X402Tolerance = int64(botpay.SettlementTolerance / time.Second)

// X402Timeout is the maxTimeoutSeconds of the requirements: how long a
// payer's authorization should stay valid.
const X402Timeout = 300

// noChain is the settler of a live service built without a relayer: it
// refuses every payment rather than fall back to the sandbox, which would
// record sales nobody paid for.
type noChain struct{}

func (noChain) Settle(context.Context, x402.Payment) (settle.Result, error) {
	return settle.Result{}, errors.New("live mode without a chain settler")
}

func (s *Service) x402Defaults() {
	if s.settler == nil && s.live {
		s.settler = noChain{}
	}
	if s.settler == nil {
		s.settler = settle.Sandbox{IsOurs: func(ctx context.Context, a x402.Address) (bool, error) {
			_, ok, err := s.ProcessorWalletByAddress(ctx, a.Hex())
			return ok, err
		}}
	}
}

// X402Offer is what a checkout page (or an invoice on it) asks an x402
// payer: an exact amount to the seller's processor wallet.
type X402Offer struct {
	Page    botpay.CheckoutPage
	Invoice *botpay.Invoice
	// Link, with no Page, makes the offer of a payment link
	// (settlement_links.go).
	Link   *botpay.PaymentLink
	Amount botpay.Money
	PayTo  x402.Address
	// BotID and ResourceURL, with no Page, make the offer of a bot's own
	// resource that the facilitator settles (facilitator.go).
	BotID       string
	ResourceURL string
	// BuyerEmail and BuyerName are what a person paying from the buyer
	// page told the seller (X402Buyer); agents send neither.
	BuyerEmail string
	BuyerName  string
	// Closed says why nothing more can be paid here (an invoice paid
	// already, an expired page, a link no longer pending); an authorization settled here before
	// still answers with its original result, so a payer who lost the
	// answer to its payment can read it again.
	Closed error
}

// Micro is the offer's amount in micro-USDC.
func (o X402Offer) Micro() botpay.Micro { return botpay.MicroOf(o.Amount) }

// X402Offer works out the price of a page for an x402 payer. ref names an
// invoice on the page; requested is the buyer's amount on pages that let
// the buyer choose (nil: the page's own price).
func (s *Service) X402Offer(ctx context.Context, pageID, ref, token string, requested *botpay.Money, clientIP string) (X402Offer, error) {
	page, err := s.offers.CheckoutPage(ctx, pageID)
	if err != nil {
		return X402Offer{}, err
	}
	o := X402Offer{Page: page}
	if !page.AcceptsWallet() {
		return o, botpay.Errorf(botpay.KindInvalid, botpay.CodeMethodNotAllowedOnPage, "this checkout page accepts no wallet payment (neither x402 nor usdc_direct)")
	}
	if ref = strings.TrimSpace(ref); ref != "" {
		inv, err := s.offers.InvoiceForBuyer(ctx, page.ID, ref, token, clientIP)
		if err != nil {
			return o, err
		}
		if !inv.Payable() {
			o.Closed = botpay.Errorf(botpay.KindConflict, botpay.CodeInvoiceNotPayable, "invoice %s is %s and cannot be paid", inv.ReferenceNumber, inv.Status)
		}
		o.Invoice = &inv
	} else if page.Status(s.clock.Now()) == botpay.PageExpired {
		o.Closed = botpay.Errorf(botpay.KindGone, botpay.CodeCheckoutPageExpired, "this checkout page has expired")
	}
	if o.Amount, err = botpay.SaleAmount(&page, o.Invoice, requested); err != nil {
		return o, err
	}
	w, err := s.ProcessorWallet(ctx, page.BotID)
	if err != nil {
		return o, err
	}
	if w == nil {
		return o, botpay.Errorf(botpay.KindNotFound, botpay.CodeNoProcessorWallet, "the seller has no processor wallet to receive x402 payments")
	}
	o.PayTo, _ = x402.ParseAddress(w.Address)
	return o, nil
}

// X402Buyer checks and attaches what a person paying from the buyer page
// tells the seller: an e-mail address for the receipt and a name. Both are
// optional here, as agents paying the same route send neither; the buyer
// page asks for the name where the page collects it.
func (s *Service) X402Buyer(o *X402Offer, email, name string) error {
	p := validate.Problems{}
	if strings.TrimSpace(email) != "" {
		o.BuyerEmail = p.Email("buyer_email", email)
	}
	o.BuyerName = p.Text("buyer_name", name, 0, 200, false)
	return p.Err()
}

// X402Rejected is a payment the endpoint refuses: it answers 402 with the
// requirements again and Reason as their error.
type X402Rejected struct{ Reason string }

func (e *X402Rejected) Error() string { return "x402 payment rejected: " + e.Reason }

// X402Settlement is a settled (or replayed) x402 payment.
type X402Settlement struct {
	Sale   botpay.SaleResult
	Payer  x402.Address
	Replay bool
}

// SettleX402 verifies an X-PAYMENT header against the offer and settles it
// once. The same authorization again — from any replica, even with its
// signature malleated — returns the original result and moves no money:
// (payer, nonce) is unique in the database.
func (s *Service) SettleX402(ctx context.Context, o X402Offer, header string) (X402Settlement, error) {
	p, err := x402.Decode(header)
	if err != nil {
		return X402Settlement{}, &X402Rejected{Reason: "invalid_payment_header: " + strings.TrimPrefix(err.Error(), "x402: ")}
	}
	return s.settleX402(ctx, o, p, "")
}

// settleX402 is the one path of both versions once the payment is decoded;
// paymentID is a v2 payer's payment identifier ("" for none), bound to the
// authorization when it is claimed.
func (s *Service) settleX402(ctx context.Context, o X402Offer, p x402.Payment, paymentID string) (X402Settlement, error) {
	a := p.Authorization
	out := X402Settlement{Payer: a.From}
	answerBy := time.Now().Add(s.buyerWait) // before the server's write deadline
	if s.signedBy(p) {
		// A valid signature, perhaps in its malleated form: an authorization
		// seen before answers with its original result.
		if res, ok, err := s.x402Original(ctx, a); err != nil || ok {
			if errors.Is(err, errAuthorizationFailed) {
				return out, &X402Rejected{Reason: ReasonSettlementFailed}
			}
			out.Sale, out.Replay = res, true
			return out, samePage(res, o, err)
		}
	}
	if o.Closed != nil {
		return out, o.Closed
	}
	expect := x402.Expect{PayTo: o.PayTo, Amount: uint64(o.Micro()), Exact: true, Now: s.clock.Now().Unix(), Tolerance: X402Tolerance}
	if s.live {
		expect.Tolerance, expect.ExpiryMargin = 0, X402ExpiryMargin
	}
	if err := x402.Verify(p, s.domain, expect); err != nil {
		if s.live {
			return out, &X402Rejected{Reason: verifyReason(err)}
		}
		return out, &X402Rejected{Reason: strings.TrimPrefix(err.Error(), "x402: ")}
	}
	claim := X402Payment{Payer: a.From.Hex(), Nonce: a.Nonce.Hex(), PageID: o.Page.ID, Amount: o.Micro(), Token: s.domain.Contract.Hex(),
		Route: o.Route(), PaymentID: paymentID, BuyerEmail: o.BuyerEmail, BuyerName: o.BuyerName}
	if o.Invoice != nil {
		claim.InvoiceRef = o.Invoice.ReferenceNumber
	}
	switch {
	case o.Link != nil:
		claim.LinkID, claim.BotID = o.Link.ID, o.Link.BotID
	case o.Page.ID == "":
		claim.BotID, claim.ResourceURL = o.BotID, o.ResourceURL
	}
	for attempt := 0; ; attempt++ {
		id, err := s.claimX402Payment(ctx, claim)
		if err == nil && s.onChain() {
			out.Sale, err = s.settleOnChain(ctx, id, o, p, answerBy)
			return out, err
		}
		if err == nil {
			out.Sale, err = s.settleClaim(ctx, id, o, p)
			return out, err
		}
		if errors.Is(err, ErrPaymentIdentifierTaken) {
			return out, errPaymentIdentifierReused(paymentID)
		}
		if !errors.Is(err, kernel.ErrUnique) || attempt == 3 {
			return out, err
		}
		res, ok, err := s.awaitOriginal(ctx, a, answerBy)
		if err != nil || ok {
			out.Sale, out.Replay = res, true
			return out, samePage(res, o, err)
		}
	}
}

// samePage lets a replay answer with its original result only where it
// was paid: an authorization spent on another page (or invoice), or on
// another bot's own resource through the facilitator, is used up.
func samePage(res botpay.SaleResult, o X402Offer, err error) error {
	if err != nil {
		return err
	}
	if o.Link != nil {
		return sameLink(res, o)
	}
	if res.Link != nil {
		return &X402Rejected{Reason: "authorization_already_used"}
	}
	if o.Page.ID == "" || res.Page == nil {
		if res.Page != nil || o.Page.ID != "" || res.Sale.BotID != o.BotID {
			return &X402Rejected{Reason: "authorization_already_used"}
		}
		return nil
	}
	sameInvoice := (res.Invoice == nil && o.Invoice == nil) || (res.Invoice != nil && o.Invoice != nil && res.Invoice.ID == o.Invoice.ID)
	if res.Page.ID != o.Page.ID || !sameInvoice {
		return &X402Rejected{Reason: "authorization_already_used"}
	}
	return nil
}

func (s *Service) signedBy(p x402.Payment) bool {
	d := s.domain.Digest(p.Authorization)
	from, err := x402.Recover(d, p.Signature)
	if errors.Is(err, x402.ErrHighS) {
		from, err = x402.Recover(d, x402.Malleate(p.Signature))
	}
	return err == nil && from == p.Authorization.From
}

// settleClaim runs the settler for a claimed authorization and records the
// sale; on failure the claim is dropped so the payer may try again.
func (s *Service) settleClaim(ctx context.Context, id int64, o X402Offer, p x402.Payment) (botpay.SaleResult, error) {
	release := func(err error) (botpay.SaleResult, error) {
		if rerr := s.releaseX402Payment(context.WithoutCancel(ctx), id); rerr != nil {
			s.log.ErrorContext(ctx, "x402 claim not released", "claim", id, "err", rerr)
		}
		return botpay.SaleResult{}, err
	}
	r, err := s.settler.Settle(ctx, p)
	if err != nil {
		s.log.WarnContext(ctx, "x402 settlement failed", "payer", p.Authorization.From.Hex(), "err", err)
		return release(&X402Rejected{Reason: "settlement_failed"})
	}
	in := botpay.SaleInput{PageID: o.Page.ID, Method: o.Page.WalletMethod(), BuyerType: botpay.BuyerWallet,
		BuyerIdentifier: p.Authorization.From.Hex(), TxHash: r.TxHash, Amount: &o.Amount, BotID: o.BotID, ResourceURL: o.ResourceURL,
		BuyerEmail: o.BuyerEmail, BuyerName: o.BuyerName}
	if o.Invoice != nil {
		in.InvoiceRef = o.Invoice.ReferenceNumber
	}
	if o.Link != nil {
		in.LinkID, in.LinkHeld = o.Link.ID, true
	}
	var debit *internalDebit
	if r.Internal {
		debit = &internalDebit{Payer: p.Authorization.From.Hex(), Nonce: p.Authorization.Nonce.Hex(), Amount: o.Micro()}
	}
	res, err := s.completeX402Payment(ctx, id, in, debit)
	if err != nil {
		if errors.Is(err, ErrPayerBalance) {
			return release(&X402Rejected{Reason: "insufficient_funds"})
		}
		return release(err)
	}
	s.receipts.MailReceipt(ctx, res)
	return res, nil
}

// errAuthorizationFailed is an authorization whose transaction the chain
// reverted: it is used up here, and the payer signs a new one.
var errAuthorizationFailed = errors.New("payments: the authorization's settlement failed on chain")

// x402Original is the result of an authorization settled before.
func (s *Service) x402Original(ctx context.Context, a x402.Authorization) (botpay.SaleResult, bool, error) {
	pay, ok, err := s.x402PaymentByNonce(ctx, a.From.Hex(), a.Nonce.Hex())
	if err == nil && ok && pay.Status == X402Failed {
		return botpay.SaleResult{}, false, errAuthorizationFailed
	}
	if err != nil || !ok || pay.Status != X402Confirmed {
		return botpay.SaleResult{}, false, err
	}
	var res botpay.SaleResult
	if res.Sale, err = s.sales.SaleByTxHash(ctx, pay.TxHash); err != nil {
		return res, false, err
	}
	if pay.LinkID != "" {
		link, err := s.offers.PaymentLink(ctx, pay.LinkID)
		if err != nil {
			return res, false, err
		}
		res.Link = &link
		return res, true, nil
	}
	if pay.PageID == "" { // a sale of the bot's own resource (facilitator)
		return res, true, nil
	}
	page, err := s.offers.CheckoutPage(ctx, pay.PageID)
	if err != nil {
		return res, false, err
	}
	res.Page = &page
	if pay.InvoiceRef != "" {
		if inv, err := s.offers.PaidInvoice(ctx, pay.PageID, pay.InvoiceRef); err == nil {
			res.Invoice = &inv
		}
	}
	return res, true, nil
}

// awaitOriginal waits for a concurrent settlement of the same
// authorization (claimed by another request or replica) to finish, until
// answerBy at the latest.
func (s *Service) awaitOriginal(ctx context.Context, a x402.Authorization, answerBy time.Time) (botpay.SaleResult, bool, error) {
	deadline := time.Now().Add(30 * time.Second)
	if answerBy.Before(deadline) {
		deadline = answerBy
	}
	for time.Now().Before(deadline) {
		pay, ok, err := s.x402PaymentByNonce(ctx, a.From.Hex(), a.Nonce.Hex())
		if err != nil {
			return botpay.SaleResult{}, false, err
		}
		if !ok {
			return botpay.SaleResult{}, false, nil // released: the caller claims again
		}
		if pay.Status == X402Confirmed {
			return s.x402Original(ctx, a)
		}
		if pay.Status == X402Failed {
			return botpay.SaleResult{}, false, &X402Rejected{Reason: ReasonSettlementFailed}
		}
		select {
		case <-ctx.Done():
			return botpay.SaleResult{}, false, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return botpay.SaleResult{}, false, errPaymentInProgress("this authorization is being settled; retry shortly")
}
