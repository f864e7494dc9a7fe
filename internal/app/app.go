package app

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/botpay/botpay/internal/accounts"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/earning"
	"github.com/botpay/botpay/internal/egress"
	"github.com/botpay/botpay/internal/idempotency"
	"github.com/botpay/botpay/internal/jobs"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/ratelimit"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/wallets"
	"github.com/botpay/botpay/internal/x402"
)

// Limits are the configurable rate limits; zero values take the interface's
// defaults.
type Limits struct {
	RegisterPerHour int // per client IP (docs/api.md)
	PairingPerHour  int // per owner (docs/decisions.md: 5)
	LoginPerHour    int // attempts per client IP (failures also back off per e-mail and IP)
	SignupPerHour   int // per client IP (BOTPAY_RATE_SIGNUP_PER_HOUR)
	// ResetPerHour bounds password-reset requests per client IP.
	ResetPerHour int
	ClaimPerHour int // per owner and per client IP
	// Failed claims per owner account per day and service-wide per hour
	// (claims.go): budgets a guesser cannot multiply with addresses.
	ClaimFailuresPerOwnerPerDay int
	ClaimFailuresPerHour        int
	TopupPerHour                int // per bot, so a bot cannot flood its owner's inbox
	// RefMissesPerHour bounds unknown invoice references per client IP on
	// the buyer side (reference numbers are sequential).
	RefMissesPerHour int
	CheckoutPerHour  int // per bot (docs/api.md)
	// Invoice e-mails per rolling 24 hours, per bot and per owner
	// (earning/invoice_mail_limits.go).
	InvoiceMailsPerBotPerDay   int
	InvoiceMailsPerOwnerPerDay int
	// FacilitatorPerMinute bounds each of a bot's x402 facilitator verify
	// and settle calls (internal/payments/facilitator.go).
	FacilitatorPerMinute int
	// Owner notifications per rolling 24 hours, per bot and per recipient
	// address (owner_mail_limits.go).
	OwnerMailsPerBotPerDay     int
	OwnerMailsPerAddressPerDay int
	// Receipt e-mails to buyers per rolling 24 hours, per seller bot and
	// per recipient address (receipt_mail.go).
	ReceiptMailsPerBotPerDay     int
	ReceiptMailsPerAddressPerDay int
}

func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&l.RegisterPerHour, 3)
	def(&l.PairingPerHour, 5)
	def(&l.LoginPerHour, 20)
	def(&l.SignupPerHour, 10)
	def(&l.ResetPerHour, 10)
	def(&l.ClaimPerHour, 20)
	def(&l.ClaimFailuresPerOwnerPerDay, 20)
	def(&l.ClaimFailuresPerHour, 1000)
	def(&l.TopupPerHour, 10)
	def(&l.CheckoutPerHour, 30)
	def(&l.FacilitatorPerMinute, payments.FacilitatorCallsPerMinute)
	def(&l.OwnerMailsPerBotPerDay, 20)
	def(&l.OwnerMailsPerAddressPerDay, 50)
	def(&l.ReceiptMailsPerBotPerDay, 1000)
	def(&l.ReceiptMailsPerAddressPerDay, 20)
	return l
}

// Service carries the dependencies of every use case.
type Service struct {
	store   *store.Store
	earning *earning.Service
	sealer  *seal.Sealer
	mail    mail.Sender
	clock   botpay.Clock
	log     *slog.Logger
	baseURL string
	limits  Limits
	// allowPrivate lets callback URLs point at internal addresses
	// (BOTPAY_WEBHOOK_ALLOW_PRIVATE).
	allowPrivate bool
	// chain settles on a real chain in live mode (nil in the sandbox);
	// domain is the token every signature and requirement names.
	chain  *settle.Chain
	domain x402.Domain
	// resources reads the 402 answers of resources a bot asks to sign for
	// (recipient_binding.go), through the outbound guard.
	resources *http.Client
	// live is BOTPAY_MODE=live: no sandbox payment, no owner funding of
	// processor wallets (mode.go), no sandbox settler (internal/payments).
	live bool
	// bots registers, claims and authenticates bots and rotates their keys.
	bots *bots.Service
	// explorerURL is BOTPAY_X402_EXPLORER_URL.
	explorerURL string
	accounts    *accounts.Service
	// jobs is the job queue the process's runner takes its jobs from, so
	// that what the service enqueues wakes it.
	jobs *jobs.Queue
	// windows count the rate limits of every capability.
	windows *ratelimit.Windows
	// idempotency keeps the first responses of idempotent requests.
	idempotency *idempotency.Keys
	// notifications hands bots their pending messages and authenticates
	// tunnel clients.
	notifications *notifications.Service
	// ownerMail sends owner notifications within their daily limits and
	// retries them (owner_mail.go).
	ownerMail *notifications.OwnerMail
	// spending decides checkouts and owners' approvals of them.
	spending *spending.Service
	// payments signs x402 payments.
	payments *payments.Service
	// wallets funds, freezes and reads bots' card wallets and their
	// top-up requests.
	wallets *wallets.Service
}

// Config assembles a Service.
type Config struct {
	Store   *store.Store
	Sealer  *seal.Sealer
	Mail    mail.Sender
	Logger  *slog.Logger
	BaseURL string // public URL, no trailing slash
	Limits  Limits
	// WebhookAllowPrivate turns off the up-front refusal of internal
	// callback URLs.
	WebhookAllowPrivate bool
	// Settler settles x402 payments (nil: the sandbox settler, or in live
	// mode a settler that refuses every payment).
	Settler settle.Settler
	// Chain, set in live mode, settles x402 payments on chain and names
	// the token domain; without it Domain does (zero: USDC on Base).
	Chain  *settle.Chain
	Domain x402.Domain
	// Live is BOTPAY_MODE=live.
	Live bool
	// ResourceHTTP reads resources' 402 answers (nil: the egress client,
	// guarded unless WebhookAllowPrivate); tests give one that resolves
	// their vendors' names to local servers.
	ResourceHTTP *http.Client
	// ExplorerURL is a block explorer of the chain (no trailing slash);
	// receipts link their transaction there. Empty: no link.
	ExplorerURL string
	// WriteTimeout is the HTTP server's write timeout: a request that waits
	// for the chain answers before it (0: no limit is known).
	WriteTimeout time.Duration
	// Jobs is the queue the process's job runner takes from (nil: one of
	// the service's own, for a process that runs no jobs).
	Jobs *jobs.Queue
}

// New builds the Service.
func New(c Config) *Service {
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	svc := &Service{store: c.Store, sealer: c.Sealer, mail: c.Mail, clock: c.Store.Clock(), log: log,
		baseURL: c.BaseURL, limits: c.Limits.withDefaults(), allowPrivate: c.WebhookAllowPrivate,
		chain: c.Chain, domain: c.Domain, live: c.Live,
		explorerURL: c.ExplorerURL,
		resources:   egress.Client(egress.Options{AllowPrivate: c.WebhookAllowPrivate, Timeout: payments.ResourceFetchTimeout}),
		jobs:        c.Jobs}
	if c.ResourceHTTP != nil {
		svc.resources = c.ResourceHTTP
	}
	svc.idempotency = idempotency.New(c.Store.Kernel())
	svc.windows = ratelimit.New(c.Store.Kernel())
	if svc.jobs == nil {
		svc.jobs = jobs.NewQueue(c.Store.Kernel())
	}
	if c.Chain != nil {
		svc.domain = c.Chain.Domain
	}
	if svc.domain == (x402.Domain{}) {
		svc.domain = x402.BaseUSDC
	}
	svc.ownerMail = svc.newOwnerMail(c)
	svc.earning = svc.newEarning(c)
	svc.bots = newBots(svc, c)
	svc.accounts = svc.newAccounts(c)
	svc.notifications = notifications.NewService(notifications.Deps{DB: c.Store.Kernel(), Sealer: c.Sealer, Bots: svc.bots,
		BotAuthFailed: errBotAuth})
	svc.spending = newSpending(svc, c)
	svc.payments = newPayments(svc, c)
	svc.wallets = newWallets(svc, c)
	return svc
}

// Bots is the capability of bots and their keys.
func (s *Service) Bots() *bots.Service { return s.bots }

// Earning records sales and refunds.
func (s *Service) Earning() *earning.Service { return s.earning }

// Notifications is what a bot reads of its notifications.
func (s *Service) Notifications() *notifications.Service { return s.notifications }

// Domain is the EIP-712 domain of the token x402 payments use.
func (s *Service) Domain() x402.Domain { return s.domain }

// Now is the service's clock reading, for views that derive states (a
// link's expiry) from time.
func (s *Service) Now() time.Time { return s.clock.Now() }

// Limits are the running rate limits, defaults filled in; a limit still
// zero is left to its capability's own default.
func (s *Service) Limits() Limits { return s.limits }

// onChain reports whether x402 payments settle on a real chain (live
// mode with its relayer).
func (s *Service) onChain() bool { return s.chain != nil }

// BaseURL is the public URL the service hands out in links.
func (s *Service) BaseURL() string { return s.baseURL }

// TransactionURL is the block explorer's page of a transaction, or "" when
// no explorer is configured.
func (s *Service) TransactionURL(hash string) string {
	if s.explorerURL == "" || hash == "" {
		return ""
	}
	return s.explorerURL + "/tx/" + hash
}

// notify sends an e-mail outside any transaction and reports whether it
// went. A failure is logged, never fatal to the action that caused it, and
// not retried: the caller tells its client (owner notifications go through
// notifyOwner instead, owner_mail.go).
func (s *Service) notify(ctx context.Context, m mail.Message) bool {
	if err := s.send(ctx, m); err != nil {
		s.log.WarnContext(ctx, "e-mail not sent", "subject", m.Subject, "err", err)
		return false
	}
	return true
}
