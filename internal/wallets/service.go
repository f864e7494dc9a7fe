package wallets

import (
	"context"
	"log/slog"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/ratelimit"
)

// Reads are what the full status view shows beside the wallet, kept by
// internal/spending (guardrails) and internal/notifications (messages).
type Reads interface {
	// BotGuardrails reads a claimed bot's guardrails (wallet_not_active
	// before the claim).
	BotGuardrails(ctx context.Context, bot botpay.Bot) (botpay.Guardrails, error)
	// MasterGuardrails reads the owner's master guardrails, nil when unset.
	MasterGuardrails(ctx context.Context, owner botpay.Owner) (*botpay.MasterGuardrails, error)
	// PendingMessageCount counts the bot's staged, unacknowledged,
	// unexpired messages.
	PendingMessageCount(ctx context.Context, botID string) (int, error)
}

// ProcessorWallets is the bot's other rail, its x402 processor wallet.
type ProcessorWallets interface {
	// ProcessorWallet reads the bot's processor wallet with its balance,
	// nil until the owner creates one; a balance the chain could not give
	// is reported as the wallet without it, not as an error.
	ProcessorWallet(ctx context.Context, botID string) (*botpay.ProcessorWallet, error)
	// FundProcessorWallet adds amount to an owned bot's processor wallet.
	FundProcessorWallet(ctx context.Context, owner botpay.Owner, botID string, amount botpay.Money) (botpay.Funding, error)
}

// OwnerMail tells a bot's owner about a top-up request.
type OwnerMail interface {
	// OwnerEmail is the address of the owner's account.
	OwnerEmail(ctx context.Context, ownerID string) (string, error)
	// MailOnce makes one attempt at m, about bot, if the owner mail's
	// daily limits admit it, and reports whether it went.
	MailOnce(ctx context.Context, bot botpay.Bot, m mail.Message) bool
}

// RateLimits counts attempts in the database's rate-limit windows.
type RateLimits interface {
	Take(ctx context.Context, l ratelimit.Limit) error
}

// Deps is what the Service is built from.
type Deps struct {
	DB         *kernel.DB
	Outbox     *ledger.Outbox
	Reads      Reads
	Processor  ProcessorWallets
	OwnerMail  OwnerMail
	RateLimits RateLimits
	// TopupsPerHour bounds each bot's top-up requests, so that a bot
	// cannot flood its owner's inbox.
	TopupsPerHour int
	// BotAuthFailed is the answer to a wallet check whose API key
	// authenticates no bot.
	BotAuthFailed error
	// BaseURL is the public URL, no trailing slash, the top-up mail links
	// the dashboard at.
	BaseURL string
	// Logger records what goes wrong after a use case has succeeded (nil:
	// nothing is logged).
	Logger *slog.Logger
}

// Service is a bot's card wallet as its owner and the bot see it.
type Service struct {
	db            *kernel.DB
	outbox        *ledger.Outbox
	clock         botpay.Clock
	reads         Reads
	processor     ProcessorWallets
	ownerMail     OwnerMail
	rateLimits    RateLimits
	topupsPerHour int
	botAuthFailed error
	baseURL       string
	log           *slog.Logger
}

// New builds the Service.
func New(d Deps) *Service {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{db: d.DB, outbox: d.Outbox, clock: d.DB.Clock(), reads: d.Reads, processor: d.Processor,
		ownerMail: d.OwnerMail, rateLimits: d.RateLimits, topupsPerHour: d.TopupsPerHour,
		botAuthFailed: d.BotAuthFailed, baseURL: d.BaseURL, log: d.Logger}
}

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("wallets")

// Times are stored as integer Unix milliseconds on both engines.
func ms(t time.Time) int64 { return kernel.MS(t) }

func fromMS(v int64) time.Time { return kernel.FromMS(v) }

var isNoRows = kernel.IsNoRows
