package payments

import (
	"context"
	"encoding/json"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/x402"
)

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
	reqs, err := s.pendingSigningRequests(ctx, owner.ID, page)
	if err != nil {
		return botpay.Page[SigningApproval]{}, err
	}
	return botpay.MapPage(reqs, SigningApprovalOf), nil
}

// SigningApprovalOf is a signing request as an entry of the approvals list.
func SigningApprovalOf(r botpay.SigningRequest) SigningApproval {
	a := SigningApproval{Kind: "signing", ID: r.ID, BotID: r.BotID, AmountUSD: r.Amount, MerchantName: r.ResourceHost,
		ItemName: r.ResourceURL, Status: r.Status, CreatedAt: botpay.Timestamp(r.CreatedAt)}
	if r.ExpiresAt != nil {
		a.ExpiresAt = botpay.Timestamp(*r.ExpiresAt)
	}
	return a
}

// OwnedSigningRequest reads one of the owner's signing requests; another
// owner's is not found, exactly like a missing one.
func (s *Service) OwnedSigningRequest(ctx context.Context, ownerID string, id int64) (botpay.SigningRequest, error) {
	return s.ownedSigningRequest(ctx, ownerID, id)
}

// DecideSigning approves (signing now, valid for the default five
// minutes from the decision) or denies a held signing request, announcing
// it with purchase.approved (carrying the signed header) or
// purchase.rejected. It answers the request's new status: approved or
// denied. The signature is made before the transaction, which decides
// again under the wallet's lock.
func (s *Service) DecideSigning(ctx context.Context, owner botpay.Owner, id int64, approve bool) (string, error) {
	r, err := s.ownedSigningRequest(ctx, owner.ID, id)
	if err != nil {
		return "", err
	}
	if r.Status != botpay.SigningPending {
		return "", botpay.DecideHeldSigning(r, s.clock.Now())
	}
	d := signingDecision{Approve: approve, Event: botpay.PurchaseRejectedData{CheckoutID: botpay.SigningCheckoutID(r.ID),
		ApprovalID: r.ID, Amount: r.Amount, Currency: "USDC", Vendor: r.ResourceHost, ResourceURL: r.ResourceURL, Reason: "denied by owner"}}
	status := botpay.SigningDenied
	if approve {
		status = botpay.SigningApproved
		if d, err = s.approval(ctx, r); err != nil {
			return "", err
		}
	}
	if _, err := s.decideHeld(ctx, owner.ID, id, d); err != nil {
		return "", err
	}
	return status, nil
}

// approval signs a held request for the owner who approves it.
func (s *Service) approval(ctx context.Context, r botpay.SigningRequest) (signingDecision, error) {
	w, err := s.ProcessorWallet(ctx, r.BotID)
	if err != nil || w == nil {
		return signingDecision{}, firstErr(err, ErrNoProcessorWallet)
	}
	key, from, err := s.WalletKey(*w)
	if err != nil {
		return signingDecision{}, err
	}
	to, _ := x402.ParseAddress(r.Recipient)
	validBefore := s.clock.Now().Add(botpay.SignatureDefaultValidity).Unix()
	signed := s.SignAuthorization(key, x402.Authorization{From: from, To: to, Value: uint64(r.Amount), ValidBefore: uint64(validBefore), Nonce: NewNonce()})
	d := signingDecision{Approve: true}
	d.Nonce, d.ValidBefore, d.Signature, d.Header = signed.Authorization.Nonce.Hex(), validBefore, signed.Signature.Hex(), x402.Encode(signed, s.domain)
	approved := botpay.PurchaseApprovedData{CheckoutID: botpay.SigningCheckoutID(r.ID), ApprovalID: r.ID, Amount: r.Amount,
		Currency: "USDC", Vendor: r.ResourceHost, ResourceURL: r.ResourceURL, Description: "Signed payment for " + r.ResourceURL,
		ApprovalMode: "owner", XPaymentHeader: d.Header, Signature: d.Signature, ValidBefore: validBefore}
	s.addOfferHeaders(&approved, r, signed)
	d.Event = approved
	return d, nil
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
