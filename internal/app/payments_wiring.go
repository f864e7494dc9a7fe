package app

import (
	"context"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/x402"
)

// newPayments builds the capability of x402 money over the store's kernel
// and outbox; wallets, their keys and balances on chain and the owner's
// mail stay here until they move too.
func newPayments(s *Service, c Config) *payments.Service {
	d := payments.Deps{DB: c.Store.Kernel(), Outbox: c.Store.Outbox(), Logger: s.log, Domain: s.domain,
		Wallets: paymentsPorts{s}, Mail: paymentsPorts{s}, BaseURL: s.baseURL, Resources: s.resources}
	if s.onChain() {
		d.Chain = paymentsPorts{s}
	}
	return payments.New(d)
}

// Payments signs x402 payments from bots' processor wallets.
func (s *Service) Payments() *payments.Service { return s.payments }

// SigningApproval is a held signing request in the owner's approvals list.
type SigningApproval = payments.SigningApproval

var signingApproval = payments.SigningApprovalOf

// paymentsPorts gives internal/payments the processor wallets, their keys
// and balances, and the owner mail of this package.
type paymentsPorts struct{ s *Service }

func (p paymentsPorts) ProcessorWallet(ctx context.Context, botID string) (*botpay.ProcessorWallet, error) {
	return p.s.processorWallet(ctx, botID)
}

func (p paymentsPorts) WalletKey(w botpay.ProcessorWallet) (x402.Key, x402.Address, error) {
	return p.s.walletKey(w)
}

func (p paymentsPorts) ProcessorWalletWithBalance(ctx context.Context, botID string) (*botpay.ProcessorWallet, error) {
	return p.s.processorWalletWithBalance(ctx, botID)
}

func (p paymentsPorts) OwnerEmail(ctx context.Context, ownerID string) (string, error) {
	o, err := p.s.accounts.OwnerByID(ctx, ownerID)
	return o.Email, err
}

func (p paymentsPorts) SigningDecisionURLs(ownerID string, id int64, expires time.Time) (approve, deny string) {
	link := DecisionLink{OwnerID: ownerID, Kind: "signing", ID: strconv.FormatInt(id, 10), ExpiresAt: expires}
	deny = p.s.DecisionURL(link)
	link.Approve = true
	return p.s.DecisionURL(link), deny
}

func (p paymentsPorts) NotifyAboutBot(ctx context.Context, b botpay.Bot, m mail.Message) {
	p.s.notifyAboutBot(ctx, b, m)
}

// decideSigningByLink applies a link of kind "signing". A request already
// decided answers link_used, like a purchase's link.
func (s *Service) decideSigningByLink(ctx context.Context, owner botpay.Owner, l DecisionLink) (Approval, error) {
	id, err := strconv.ParseInt(l.ID, 10, 64)
	if err != nil || id <= 0 {
		return Approval{}, errBadDecisionLink
	}
	status, err := s.payments.DecideSigning(ctx, owner, id, l.Approve)
	if e := botpay.AsError(err); e != nil && e.Kind == botpay.KindConflict {
		return Approval{}, errDecisionLinkUsed
	}
	if err != nil {
		return Approval{}, err
	}
	r, err := s.payments.OwnedSigningRequest(ctx, owner.ID, id)
	if err != nil {
		return Approval{}, err
	}
	a := signingApproval(r)
	a.Status = status // approved or denied, as the owner API answers
	return Approval{Kind: "signing", Signing: a}, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
