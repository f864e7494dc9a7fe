package app

import (
	"context"
	"log/slog"
	"sync"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/store"
)

// Limits are the configurable rate limits; zero values take the interface's
// defaults.
type Limits struct {
	RegisterPerHour int // per client IP (INTERFACE.md 8: 3)
	PairingPerHour  int // per owner (DESIGN.md section 3: 5)
	LoginPerHour    int // per e-mail and per client IP
	ClaimPerHour    int // per owner and per client IP
	TopupPerHour    int // per bot, so a bot cannot flood its owner's inbox
	// RefMissesPerHour bounds unknown invoice references per client IP on
	// the buyer side (reference numbers are sequential).
	RefMissesPerHour int
	CheckoutPerHour  int // per bot (INTERFACE.md 8: 30)
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
	def(&l.ClaimPerHour, 20)
	def(&l.TopupPerHour, 10)
	def(&l.RefMissesPerHour, 30)
	def(&l.CheckoutPerHour, 30)
	return l
}

// Service carries the dependencies of every use case.
type Service struct {
	store   *store.Store
	sealer  *seal.Sealer
	mail    mail.Sender
	clock   botpay.Clock
	log     *slog.Logger
	baseURL string
	limits  Limits
	// allowPrivate lets callback URLs point at internal addresses
	// (BOTPAY_WEBHOOK_ALLOW_PRIVATE).
	allowPrivate bool
	// settler belongs to x402 (issue 6); see settlement.go.
	settler Settler
	// botAuth keeps claimed bots by API key digest for the payment
	// endpoints (bot_auth_cache.go).
	botAuth botAuthCache
	// signingWallets holds, by bot id, the processor wallet (address and
	// sealed key) this process last signed with (presign).
	signingWallets sync.Map
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
	// Settler settles x402 payments (nil: the sandbox settler).
	Settler Settler
}

// New builds the Service.
func New(c Config) *Service {
	log := c.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	svc := &Service{store: c.Store, sealer: c.Sealer, mail: c.Mail, clock: c.Store.Clock(), log: log,
		baseURL: c.BaseURL, limits: c.Limits.withDefaults(), allowPrivate: c.WebhookAllowPrivate,
		settler: c.Settler}
	svc.x402Defaults()
	return svc
}

// Store exposes the store for read-only views that need no use case.
func (s *Service) Store() *store.Store { return s.store }

// BaseURL is the public URL the service hands out in links.
func (s *Service) BaseURL() string { return s.baseURL }

// notify sends an e-mail outside any transaction and reports whether it
// went. A failure is logged, never fatal to the action that caused it, and
// not retried: the caller tells its client (owner notifications go through
// notifyOwner instead, mail_retries.go).
func (s *Service) notify(ctx context.Context, m mail.Message) bool {
	if err := s.send(ctx, m); err != nil {
		s.log.WarnContext(ctx, "e-mail not sent", "subject", m.Subject, "err", err)
		return false
	}
	return true
}
