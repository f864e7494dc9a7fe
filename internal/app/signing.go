package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/validate"
	"github.com/botpay/botpay/internal/x402"
)

// SignRequest is the body of POST /api/v1/processor-wallet/bot/sign.
type SignRequest struct {
	ResourceURL string
	Amount      int64 // micro-USDC
	Recipient   string
	ValidBefore *int64 // Unix seconds
	// PaymentRequired is the vendor's 402 as the bot got it, when given:
	// the PAYMENT-REQUIRED value (a JSON string) or the v1 body (an
	// object).
	PaymentRequired json.RawMessage
}

// SignResult is a signature made at once, or a request held for the owner.
type SignResult struct {
	Request   botpay.SigningRequest
	Pending   bool
	From      string // the wallet's address, EIP-55
	Header    string
	Signature string
	OfferHeaders
}

// OfferHeaders pay the vendor's own offer when the bot handed over its
// 402: PaymentSignature for a v2 one (PAYMENT-SIGNATURE), XPaymentStandard
// for a v1 one (the standard X-PAYMENT of a stock v1 seller).
type OfferHeaders struct {
	PaymentSignature string
	XPaymentStandard string
}

// offerHeaders are the headers paying offer with p; none without an offer.
func offerHeaders(offer *x402.ChosenOffer, p x402.Payment) OfferHeaders {
	switch {
	case offer == nil:
		return OfferHeaders{}
	case offer.Version == x402.Version2:
		return OfferHeaders{PaymentSignature: offer.Header(p)}
	}
	return OfferHeaders{XPaymentStandard: offer.Header(p)}
}

// vendorOffer is the offer of the vendor's 402 the request pays, nil when
// the bot handed none over. A request that does not pay that offer
// exactly is refused before anything is reserved: the vendor would refuse
// the signature.
func (s *Service) vendorOffer(in SignRequest, to x402.Address) (*x402.ChosenOffer, error) {
	if len(in.PaymentRequired) == 0 {
		return nil, nil
	}
	ask, err := x402.ReadVendorAsk(in.PaymentRequired)
	if err != nil {
		return nil, invalidSignField("payment_required", strings.TrimPrefix(err.Error(), x402.ErrVendorAsk.Error()+" "))
	}
	offer, err := ask.Choose(s.domain)
	if err != nil {
		return nil, invalidSignField("payment_required", strings.TrimPrefix(err.Error(), x402.ErrVendorAsk.Error()+" "))
	}
	var mismatch *x402.OfferMismatch
	if err := offer.Check(uint64(in.Amount), to); errors.As(err, &mismatch) {
		return nil, invalidSignField(mismatch.Field, mismatch.Detail)
	}
	return &offer, nil
}

func invalidSignField(field, problem string) error {
	return &botpay.Error{Kind: botpay.KindInvalid, Code: botpay.CodeInvalidSignRequest, Details: map[string]string{field: problem}}
}

// GuardrailBlocked is the 403 of a refused signing request; Reason is the
// body's reason field.
type GuardrailBlocked struct{ Reason string }

func (e *GuardrailBlocked) Error() string { return botpay.CodeGuardrailBlocked + ": " + e.Reason }

var errInsufficientTokens = botpay.Errorf(botpay.KindForbidden, botpay.CodeInsufficientTokens,
	"the processor wallet's available balance does not cover the amount")

// validSign checks a signing request; problems become 400 Invalid request
// with details.
func (s *Service) validSign(in SignRequest, now time.Time) (x402.Address, string, int64, error) {
	p := validate.Problems{}
	host := ""
	u, err := url.Parse(in.ResourceURL)
	switch {
	case strings.TrimSpace(in.ResourceURL) == "":
		p.Add("resource_url", "is required")
	case len(in.ResourceURL) > 2048 || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "":
		p.Add("resource_url", "must be an absolute http(s) URL of at most 2048 characters")
	default:
		host = strings.ToLower(u.Hostname())
	}
	if in.Amount <= 0 || botpay.Micro(in.Amount) > botpay.MaxSigningAmount {
		p.Add("amount_usdc", "must be a whole number of micro-units between 1 and "+botpay.MaxSigningAmount.USD()+" USDC")
	}
	to, err := x402.ParseAddress(in.Recipient)
	switch {
	case err != nil:
		p.Add("recipient_address", "must be a 0x address of 40 hex digits (mixed case must be a valid EIP-55 checksum)")
	case to == x402.Address{}:
		// Nobody holds the zero address's key: USDC sent there is burnt.
		p.Add("recipient_address", "must not be the zero address: tokens sent there are lost")
	}
	validBefore := now.Add(botpay.SignatureDefaultValidity).Unix()
	if in.ValidBefore != nil {
		validBefore = *in.ValidBefore
		if validBefore <= now.Unix()+10 || validBefore > now.Add(botpay.SignatureMaxValidity).Unix() {
			p.Add("valid_before", "must be a Unix time more than 10 seconds and at most one hour ahead")
		}
	}
	if err := p.Err(); err != nil {
		e := botpay.AsError(err)
		return to, host, 0, &botpay.Error{Kind: botpay.KindInvalid, Code: botpay.CodeInvalidSignRequest, Details: e.Details}
	}
	return to, host, validBefore, nil
}

// Sign runs the signing endpoint: validation, the signing guardrail chain
// (docs/api.md) and the reservation, then a signature at once or a request held for the
// owner. When the owner has any allow- or block-list, the request is first bound to
// what the resource itself asks (bindRecipient), outside the transaction:
// the decision that finds such lists rolls back, and the request is
// decided again once bound.
func (s *Service) Sign(ctx context.Context, bot botpay.Bot, in SignRequest) (SignResult, error) {
	now := s.clock.Now()
	to, host, validBefore, err := s.validSign(in, now)
	if err != nil {
		return SignResult{}, err
	}
	offer, err := s.vendorOffer(in, to)
	if err != nil {
		return SignResult{}, err
	}
	if !bot.Claimed() {
		return SignResult{}, store.ErrNoProcessorWallet
	}
	nonce := newNonce()
	base := botpay.SigningRequest{BotID: bot.ID, OwnerID: bot.OwnerID, ResourceURL: in.ResourceURL, ResourceHost: host,
		Recipient: to.Hex(), Amount: botpay.Micro(in.Amount), Nonce: nonce.Hex(), ValidBefore: validBefore,
		PaymentRequired: string(in.PaymentRequired)}
	a := &signingAttempt{bot: bot, host: host, to: to, offer: offer,
		auth: x402.Authorization{To: to, Value: uint64(in.Amount), ValidBefore: uint64(validBefore), Nonce: nonce}}
	a.pre, a.preWallet = s.presign(bot.ID, a.auth)
	reserve, err := s.reserver(ctx, bot.ID)
	if err != nil {
		return SignResult{}, err
	}
	req, verdict, err := reserve(ctx, base, s.decideSigning(a))
	if errors.Is(err, errBindFirst) {
		if err := s.bindRecipient(ctx, in.ResourceURL, to, in.Amount); err != nil {
			return SignResult{}, err
		}
		a.bound = true
		req, verdict, err = reserve(ctx, base, s.decideSigning(a))
	}
	switch {
	case err != nil:
		return SignResult{}, err
	case verdict.Blocked:
		return SignResult{}, &GuardrailBlocked{Reason: verdict.Reason}
	case verdict.NeedsApproval:
		s.notifyHeldSigning(ctx, bot, req) // after commit: a failed send must not undo the hold
		return SignResult{Request: req, Pending: true}, nil
	}
	return SignResult{Request: req, From: a.from.Hex(), Header: req.Header, Signature: req.Signature, OfferHeaders: a.offerHeaders}, nil
}

// signingAttempt is one signing request on its way through the decision.
type signingAttempt struct {
	bot       botpay.Bot
	host      string
	to        x402.Address
	auth      x402.Authorization
	pre       *x402.Payment // presign's signature, if any
	preWallet botpay.ProcessorWallet
	bound     bool         // checked against the resource's own requirements
	from      x402.Address // the signing wallet, once signed
	offer     *x402.ChosenOffer
	// offerHeaders pay the vendor's offer, once signed.
	offerHeaders OfferHeaders
}

// errBindFirst rolls a decision back when the owner has any procurement
// list and the request is not yet bound to the resource's requirements.
var errBindFirst = errors.New("signing: bind the recipient to the resource first")

// decideSigning judges a request under the wallet lock and signs it when
// it is allowed at once.
func (s *Service) decideSigning(a *signingAttempt) store.SigningDecider {
	amount := botpay.Micro(a.auth.Value)
	return func(sg store.Signer, spent store.SpentTotals, available botpay.Micro, r *botpay.SigningRequest) (botpay.SigningVerdict, error) {
		if sg.Frozen { // read under the wallet lock: a freeze that commits first is seen
			return botpay.SigningVerdict{}, &GuardrailBlocked{Reason: "the owner has frozen this bot's wallet"}
		}
		r.ApprovalMode = sg.Guardrails.ApprovalMode
		if amount > available {
			return botpay.SigningVerdict{}, errInsufficientTokens
		}
		v := botpay.EvaluateSigning(botpay.SigningCheck{Amount: amount, Guardrails: sg.Guardrails, Master: sg.Master,
			BotSpentDay: spent.BotDay, BotSpentMonth: spent.BotMonth, OwnerSpentDay: spent.OwnerDay, OwnerSpentMonth: spent.OwnerMonth,
			Host: a.host, Recipient: a.to.Hex(), Procurement: sg.Procurement})
		if v.Blocked {
			return v, nil
		}
		if sg.Procurement.BindsRecipient() && !a.bound {
			return v, errBindFirst
		}
		if v.NeedsApproval {
			return v, nil
		}
		signed := a.pre
		if a.pre == nil || !sameWallet(a.preWallet, sg.Wallet) {
			// Signed inside the transaction (about a hundred microseconds
			// while the bot's wallet row is locked): the first signature of
			// this process for the bot.
			key, addr, err := s.walletKey(sg.Wallet)
			if err != nil {
				return v, err
			}
			auth := a.auth
			auth.From = addr
			p := s.sign(key, auth)
			signed = &p
			s.signingWallets.Store(a.bot.ID, sg.Wallet)
		}
		a.from = signed.Authorization.From
		a.offerHeaders = offerHeaders(a.offer, *signed)
		r.Signature, r.Header = signed.Signature.Hex(), x402.Encode(*signed, s.domain)
		return v, nil
	}
}

// presign signs auth before the transaction with the processor wallet this
// process last signed with for the bot (a wallet's key and address never
// change), so that the signature is not made while the bot's wallet row,
// or on SQLite the database, is locked. The transaction uses it only when
// its own read of the wallet is that wallet and the request is allowed at
// once; otherwise it is dropped, never stored or shown.
func (s *Service) presign(botID string, auth x402.Authorization) (*x402.Payment, botpay.ProcessorWallet) {
	v, ok := s.signingWallets.Load(botID)
	if !ok {
		return nil, botpay.ProcessorWallet{}
	}
	w := v.(botpay.ProcessorWallet)
	key, addr, err := s.walletKey(w)
	if err != nil {
		return nil, botpay.ProcessorWallet{}
	}
	auth.From = addr
	p := s.sign(key, auth)
	return &p, w
}

func sameWallet(a, b botpay.ProcessorWallet) bool {
	return a.BotID == b.BotID && a.Address == b.Address && bytes.Equal(a.SealedKey, b.SealedKey)
}

// reserver is how a signature reserves funds: against the stored balance
// in the sandbox, against the wallet's balance on chain in live mode.
func (s *Service) reserver(ctx context.Context, botID string) (func(context.Context, botpay.SigningRequest, store.SigningDecider) (botpay.SigningRequest, botpay.SigningVerdict, error), error) {
	if !s.onChain() {
		return s.store.ReserveSigning, nil
	}
	w, err := s.processorWalletWithBalance(ctx, botID)
	if err != nil || w == nil {
		return nil, firstErr(err, store.ErrNoProcessorWallet)
	}
	return func(ctx context.Context, r botpay.SigningRequest, d store.SigningDecider) (botpay.SigningRequest, botpay.SigningVerdict, error) {
		return s.store.ReserveSigningAgainst(ctx, r, store.ChainBalance{Micro: w.Balance, ReadAt: w.BalanceReadAt}, d)
	}, nil
}

func newNonce() x402.Nonce {
	var n x402.Nonce
	if _, err := rand.Read(n[:]); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return n
}

// sign signs an authorization for the configured chain and token.
func (s *Service) sign(key x402.Key, auth x402.Authorization) x402.Payment {
	return x402.Payment{Authorization: auth, Signature: key.Sign(s.domain.Digest(auth)),
		ChainID: s.domain.ChainID, Token: s.domain.Contract}
}

// SigningApproval is one entry of the owner's approvals list, shaped like
// the recorded decision's entries with kind "signing".
type SigningApproval struct {
	Kind         string           `json:"kind"`
	ID           int64            `json:"id"`
	BotID        string           `json:"bot_id"`
	AmountUSD    botpay.Micro     `json:"amount_usd"`
	MerchantName string           `json:"merchant_name"`
	ItemName     string           `json:"item_name"`
	Status       string           `json:"status"`
	ExpiresAt    botpay.Timestamp `json:"expires_at"`
	CreatedAt    botpay.Timestamp `json:"created_at"`
}

// PendingSigningApprovals pages through the owner's signing requests that
// wait for a decision, oldest first (the approvals list merges them in).
func (s *Service) PendingSigningApprovals(ctx context.Context, owner botpay.Owner, page botpay.PageRequest) (botpay.Page[SigningApproval], error) {
	reqs, err := s.store.PendingSigningRequests(ctx, owner.ID, page)
	if err != nil {
		return botpay.Page[SigningApproval]{}, err
	}
	return botpay.MapPage(reqs, signingApproval), nil
}

// DecideSigning approves (signing now, valid for the default five
// minutes from the decision) or denies a held signing request, announcing
// it with purchase.approved (carrying the signed header) or
// purchase.rejected. It answers the request's new status: approved or
// denied.
func (s *Service) DecideSigning(ctx context.Context, owner botpay.Owner, id int64, approve bool) (string, error) {
	r, err := s.store.OwnedSigningRequest(ctx, owner.ID, id)
	if err != nil {
		return "", err
	}
	switch r.Status {
	case botpay.SigningPending:
	case botpay.SigningExpired:
		return "", store.ErrApprovalExpired
	default:
		return "", store.ErrAlreadyDecided
	}
	d := store.SigningDecision{Approve: approve, Event: botpay.PurchaseRejectedData{CheckoutID: botpay.SigningCheckoutID(r.ID),
		ApprovalID: r.ID, Amount: r.Amount, Currency: "USDC", Vendor: r.ResourceHost, ResourceURL: r.ResourceURL, Reason: "denied by owner"}}
	status := botpay.SigningDenied
	if approve {
		status = botpay.SigningApproved
		w, err := s.processorWallet(ctx, r.BotID)
		if err != nil || w == nil {
			return "", firstErr(err, store.ErrNoProcessorWallet)
		}
		key, from, err := s.walletKey(*w)
		if err != nil {
			return "", err
		}
		to, _ := x402.ParseAddress(r.Recipient)
		validBefore := s.clock.Now().Add(botpay.SignatureDefaultValidity).Unix()
		signed := s.sign(key, x402.Authorization{From: from, To: to, Value: uint64(r.Amount), ValidBefore: uint64(validBefore), Nonce: newNonce()})
		d.Nonce, d.ValidBefore, d.Signature, d.Header = signed.Authorization.Nonce.Hex(), validBefore, signed.Signature.Hex(), x402.Encode(signed, s.domain)
		approved := botpay.PurchaseApprovedData{CheckoutID: botpay.SigningCheckoutID(r.ID), ApprovalID: r.ID, Amount: r.Amount,
			Currency: "USDC", Vendor: r.ResourceHost, ResourceURL: r.ResourceURL, Description: "Signed payment for " + r.ResourceURL,
			ApprovalMode: "owner", XPaymentHeader: d.Header, Signature: d.Signature, ValidBefore: validBefore}
		s.addOfferHeaders(&approved, r, signed)
		d.Event = approved
	}
	if _, err := s.store.DecideSigning(ctx, owner.ID, id, d); err != nil {
		return "", err
	}
	return status, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// addOfferHeaders puts into purchase.approved the header paying the
// vendor's own offer, when the bot handed over its 402 with the held
// request. The 402 was judged when the request was made; one that no
// longer yields an offer (the service now signs on another chain) adds
// nothing, and the bot still has x_payment_header.
func (s *Service) addOfferHeaders(data *botpay.PurchaseApprovedData, r botpay.SigningRequest, signed x402.Payment) {
	if r.PaymentRequired == "" {
		return
	}
	ask, err := x402.ReadVendorAsk(json.RawMessage(r.PaymentRequired))
	if err != nil {
		return
	}
	offer, err := ask.Choose(s.domain)
	if err != nil {
		return
	}
	h := offerHeaders(&offer, signed)
	data.PaymentSignatureHeader, data.XPaymentStandardHeader = h.PaymentSignature, h.XPaymentStandard
}
