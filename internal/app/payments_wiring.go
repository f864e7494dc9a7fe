package app

import (
	"context"
	"strconv"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/ratelimit"
)

// newPayments builds the capability of x402 money over the store's kernel
// and outbox, with the owner's mail, the offers and the receipts of this
// package and the sales and refunds of internal/earning.
func newPayments(s *Service, c Config) *payments.Service {
	d := payments.Deps{DB: c.Store.Kernel(), Outbox: c.Store.Outbox(), Logger: s.log, Domain: s.domain, Sealer: c.Sealer,
		Bots: s.bots, Mail: paymentsPorts{s}, BaseURL: s.baseURL, Resources: s.resources, Live: s.live,
		Settler: c.Settler, Offers: paymentsOffers{s.earning}, Sales: s.earning, Receipts: paymentsPorts{s}, Refunds: saleRefunds{s.earning},
		Limits: paymentsPorts{s}, FacilitatorPerMinute: s.limits.FacilitatorPerMinute, WriteTimeout: c.WriteTimeout}
	if s.onChain() {
		d.Chain, d.Relayer = s.chain, s.chain
	}
	return payments.New(d)
}

// X402 payments of pages, invoices and links, their settlement and the
// facilitator are internal/payments; the api names their types here.
type (
	X402Offer      = payments.X402Offer
	X402Settlement = payments.X402Settlement
	X402Rejected   = payments.X402Rejected
)

// X402Timeout is the maxTimeoutSeconds of the requirements.
const X402Timeout = payments.X402Timeout

// paymentsOffers gives internal/payments the pages, invoices and links of
// internal/earning.
type paymentsOffers struct{ *earning.Service }

func (o paymentsOffers) PaidInvoice(ctx context.Context, pageID, ref string) (botpay.Invoice, error) {
	inv, err := o.InvoiceByRef(ctx, pageID, ref)
	return o.WithPayToken(inv), err
}

func (p paymentsPorts) MailReceipt(ctx context.Context, res botpay.SaleResult) {
	p.s.mailReceipt(ctx, res)
}

func (p paymentsPorts) TakeCall(ctx context.Context, bucket string, max int, window time.Duration) error {
	return p.s.windows.Take(ctx, ratelimit.Limit{Bucket: bucket, Max: max, Window: window})
}

// saleRefunds gives internal/payments the refund rows of internal/earning.
type saleRefunds struct{ *earning.Service }

func (r saleRefunds) SalePayer(ctx context.Context, botID, saleID string) (string, error) {
	sale, err := r.SaleForRefund(ctx, botID, saleID)
	return sale.Payer, err
}

// chainRefunds pays internal/earning's refunds of live x402 sales back on
// chain through internal/payments.
type chainRefunds struct{ s *Service }

func (c chainRefunds) RefundSaleOnChain(ctx context.Context, bot botpay.Bot, saleID string, sale earning.SaleForRefund,
	req botpay.RefundRequest) (botpay.Refund, error) {
	return c.s.payments.RefundSaleOnChain(ctx, bot, saleID,
		payments.SaleToRefund{Amount: sale.Amount, Refunded: sale.Refunded, Payer: sale.Payer}, req)
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

// The use cases still here (pages, links) reach processor wallets through
// these.

func (s *Service) processorAddress(ctx context.Context, botID string) string {
	return s.payments.ProcessorAddress(ctx, botID)
}

func (s *Service) ensureProcessorWallet(ctx context.Context, ownerID, botID string) (string, error) {
	return s.payments.EnsureProcessorWallet(ctx, ownerID, botID)
}
