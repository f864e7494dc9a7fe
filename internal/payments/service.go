package payments

import (
	"context"
	"log/slog"
	"math/big"
	"net/http"
	"sync"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/x402"
)

// Bots finds an owner's bot; another owner's is not found.
type Bots interface {
	OwnedBot(ctx context.Context, ownerID, botID string) (botpay.Bot, error)
}

// TokenBalances reads an address's token balance on chain, in the token's
// smallest unit.
type TokenBalances interface {
	TokenBalance(ctx context.Context, a x402.Address) (*big.Int, error)
}

// OwnerMail reaches a bot's owner: the address, the one-click links that
// approve or deny a held signing request until it expires, and the mail
// itself (sent unless the owner's mail limits say otherwise).
type OwnerMail interface {
	OwnerEmail(ctx context.Context, ownerID string) (string, error)
	SigningDecisionURLs(ownerID string, id int64, expires time.Time) (approve, deny string)
	NotifyAboutBot(ctx context.Context, bot botpay.Bot, m mail.Message)
}

// Deps is what the Service is built from.
type Deps struct {
	DB     *kernel.DB
	Outbox *ledger.Outbox
	Logger *slog.Logger
	// Domain is the token every signature names.
	Domain x402.Domain
	// Sealer seals processor wallets' keys, bound to their bot.
	Sealer *seal.Sealer
	Bots   Bots
	// Chain, set in live mode, reads processor wallets' balances on chain,
	// which signatures count against; nil in the sandbox, where the stored
	// balance counts.
	Chain TokenBalances
	// Live is BOTPAY_MODE=live: owners cannot fund processor wallets.
	Live bool
	Mail OwnerMail
	// BaseURL is the public URL mails link to, no trailing slash.
	BaseURL string
	// Resources reads the 402 answers of resources a bot asks to sign for
	// (recipient_binding.go), through the outbound guard.
	Resources *http.Client
}

// Service signs x402 payments.
type Service struct {
	db     *kernel.DB
	outbox *ledger.Outbox
	clock  botpay.Clock
	log    *slog.Logger
	domain x402.Domain
	sealer *seal.Sealer
	bots   Bots
	chain  TokenBalances
	live   bool
	// balances caches processor wallets' on-chain balances (live mode).
	balances  chainBalances
	mail      OwnerMail
	baseURL   string
	resources *http.Client
	// signingWallets holds, by bot id, the processor wallet (address and
	// sealed key) this process last signed with (presign).
	signingWallets sync.Map
	// signers keeps the bots' signing rules (signerConfig).
	signers kernel.ConfigCache[signerConfig]
}

// New builds the Service.
func New(d Deps) *Service {
	log := d.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{db: d.DB, outbox: d.Outbox, clock: d.DB.Clock(), log: log, domain: d.Domain, sealer: d.Sealer,
		bots: d.Bots, chain: d.Chain, live: d.Live, mail: d.Mail, baseURL: d.BaseURL, resources: d.Resources}
}

// ErrNoProcessorWallet is the 404 of the signing endpoint.
var ErrNoProcessorWallet = botpay.ErrNoProcessorWallet

// wrapErr adds the package and the context to a database error at its
// boundary.
var wrapErr = kernel.ErrorWrapper("payments")

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
