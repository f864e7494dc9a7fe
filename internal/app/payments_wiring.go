package app

import (
	"context"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/x402"
)

// newPayments builds the capability of x402 money over the store's kernel
// and outbox, with the owner's mail of this package.
func newPayments(s *Service, c Config) *payments.Service {
	d := payments.Deps{DB: c.Store.Kernel(), Outbox: c.Store.Outbox(), Logger: s.log, Domain: s.domain, Sealer: c.Sealer,
		Bots: c.Store, Mail: paymentsPorts{s}, BaseURL: s.baseURL, Resources: s.resources, Live: s.live}
	if s.onChain() {
		d.Chain = s.chain
	}
	return payments.New(d)
}

// Payments signs x402 payments from bots' processor wallets.
func (s *Service) Payments() *payments.Service { return s.payments }

// SigningApproval is a held signing request in the owner's approvals list.
type SigningApproval = payments.SigningApproval

var signingApproval = payments.SigningApprovalOf

// paymentsPorts gives internal/payments the owner mail of this package.
type paymentsPorts struct{ s *Service }

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

// The use cases still here (settlement, on-chain refunds, pages, links,
// the wallet view) reach processor wallets through these.

func (s *Service) processorWallet(ctx context.Context, botID string) (*botpay.ProcessorWallet, error) {
	return s.payments.ProcessorWallet(ctx, botID)
}

func (s *Service) processorWalletWithBalance(ctx context.Context, botID string) (*botpay.ProcessorWallet, error) {
	return s.payments.ProcessorWalletWithBalance(ctx, botID)
}

func (s *Service) processorWalletUnread(ctx context.Context, botID string, err error) (*botpay.ProcessorWallet, error) {
	return s.payments.ProcessorWalletUnread(ctx, botID, err)
}

func (s *Service) processorAddress(ctx context.Context, botID string) string {
	return s.payments.ProcessorAddress(ctx, botID)
}

func (s *Service) ensureProcessorWallet(ctx context.Context, ownerID, botID string) (string, error) {
	return s.payments.EnsureProcessorWallet(ctx, ownerID, botID)
}

func (s *Service) fundProcessorWallet(ctx context.Context, owner botpay.Owner, botID string, amount botpay.Money) (botpay.Funding, error) {
	return s.payments.FundProcessorWallet(ctx, owner, botID, amount)
}

func (s *Service) walletKey(w botpay.ProcessorWallet) (x402.Key, x402.Address, error) {
	return s.payments.WalletKey(w)
}

func (s *Service) forgetChainBalance(a x402.Address) { s.payments.ForgetChainBalance(a) }

func (s *Service) freshChainBalance(ctx context.Context, a x402.Address) (store.ChainBalance, error) {
	b, at, err := s.payments.FreshChainBalance(ctx, a)
	return store.ChainBalance{Micro: b, ReadAt: at}, err
}

var checksummed = payments.Checksummed
