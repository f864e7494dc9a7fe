package payments

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
	"github.com/botpay/botpay/internal/kernel"
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
		return SignResult{}, ErrNoProcessorWallet
	}
	nonce := NewNonce()
	base := botpay.SigningRequest{BotID: bot.ID, OwnerID: bot.OwnerID, ResourceURL: in.ResourceURL, ResourceHost: host,
		Recipient: to.Hex(), Amount: botpay.Micro(in.Amount), Nonce: nonce.Hex(), ValidBefore: validBefore,
		PaymentRequired: string(in.PaymentRequired)}
	a := &signingAttempt{bot: bot, offer: offer, ask: botpay.SigningAsk{Amount: botpay.Micro(in.Amount), Host: host, Recipient: to.Hex()},
		auth: x402.Authorization{To: to, Value: uint64(in.Amount), ValidBefore: uint64(validBefore), Nonce: nonce}}
	a.pre, a.preWallet = s.presign(bot.ID, a.auth)
	chain, err := s.chainBalance(ctx, bot.ID)
	if err != nil {
		return SignResult{}, err
	}
	req, verdict, err := s.reserve(ctx, base, chain, a)
	if errors.Is(err, botpay.ErrBindRecipientFirst) {
		if err := s.bindRecipient(ctx, in.ResourceURL, to, in.Amount); err != nil {
			return SignResult{}, err
		}
		a.ask.Bound = true
		req, verdict, err = s.reserve(ctx, base, chain, a)
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
	ask       botpay.SigningAsk
	auth      x402.Authorization
	pre       *x402.Payment // presign's signature, if any
	preWallet botpay.ProcessorWallet
	from      x402.Address // the signing wallet, once signed
	offer     *x402.ChosenOffer
	// offerHeaders pay the vendor's offer, once signed.
	offerHeaders OfferHeaders
}

// reserve is a signing request's unit of work, in one transaction: lock
// the bot's processor wallet and read the facts (one round trip on
// PostgreSQL), decide, sign when the request is allowed at once, and
// write the request with its reservation — signed (reserved until the
// authorization expires) or pending (until the approval window closes).
// Concurrent requests queue on the wallet's row, so signatures can never
// promise more than the balance. It emits no event: the bot has its answer.
func (s *Service) reserve(ctx context.Context, r botpay.SigningRequest, chain *chainBalance, a *signingAttempt) (botpay.SigningRequest, botpay.SigningVerdict, error) {
	now := s.clock.Now()
	r.CreatedAt = now
	var verdict botpay.SigningVerdict
	err := s.db.InTx(ctx, func(tx *kernel.Tx) error {
		f, err := s.signingFacts(ctx, tx, r, chain, now)
		if err != nil {
			return err
		}
		r.ApprovalMode = f.Guardrails.ApprovalMode
		if verdict, err = botpay.DecideSigning(f.SigningFacts, a.ask); err != nil || verdict.Blocked {
			return err
		}
		if !verdict.NeedsApproval {
			if err := s.signNow(a, f.wallet, &r); err != nil {
				return err
			}
		}
		s.writeSigning(tx, f, &r, verdict, now)
		return nil
	})
	return r, verdict, wrapErr(err, "reserve signing %s", r.BotID)
}

// signNow signs a request allowed at once, with presign's signature when
// it was made with the wallet the transaction read.
func (s *Service) signNow(a *signingAttempt, w botpay.ProcessorWallet, r *botpay.SigningRequest) error {
	signed := a.pre
	if a.pre == nil || !sameWallet(a.preWallet, w) {
		// Signed inside the transaction (about a hundred microseconds
		// while the bot's wallet row is locked): the first signature of
		// this process for the bot.
		key, addr, err := s.WalletKey(w)
		if err != nil {
			return err
		}
		auth := a.auth
		auth.From = addr
		p := s.SignAuthorization(key, auth)
		signed = &p
		s.signingWallets.Store(a.bot.ID, w)
	}
	a.from = signed.Authorization.From
	a.offerHeaders = offerHeaders(a.offer, *signed)
	r.Signature, r.Header = signed.Signature.Hex(), x402.Encode(*signed, s.domain)
	return nil
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
	key, addr, err := s.WalletKey(w)
	if err != nil {
		return nil, botpay.ProcessorWallet{}
	}
	auth.From = addr
	p := s.SignAuthorization(key, auth)
	return &p, w
}

func sameWallet(a, b botpay.ProcessorWallet) bool {
	return a.BotID == b.BotID && a.Address == b.Address && bytes.Equal(a.SealedKey, b.SealedKey)
}

// chainBalance is the balance signatures reserve against in live mode,
// the wallet's balance on chain; nil in the sandbox, where the stored
// balance counts.
func (s *Service) chainBalance(ctx context.Context, botID string) (*chainBalance, error) {
	if s.chain == nil {
		return nil, nil
	}
	w, err := s.ProcessorWalletWithBalance(ctx, botID)
	if err != nil || w == nil {
		return nil, firstErr(err, ErrNoProcessorWallet)
	}
	return &chainBalance{Micro: w.Balance, ReadAt: w.BalanceReadAt}, nil
}

// NewNonce is a fresh random authorization nonce.
func NewNonce() x402.Nonce {
	var n x402.Nonce
	if _, err := rand.Read(n[:]); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return n
}

// SignAuthorization signs an authorization with a processor wallet's key
// for the configured chain and token.
func (s *Service) SignAuthorization(key x402.Key, auth x402.Authorization) x402.Payment {
	return x402.Payment{Authorization: auth, Signature: key.Sign(s.domain.Digest(auth)),
		ChainID: s.domain.ChainID, Token: s.domain.Contract}
}
