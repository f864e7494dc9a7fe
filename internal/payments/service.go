package payments

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/ledger"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/x402"
)

// Wallets reads a bot's processor wallet (nil without one) and unseals
// its key; the key checked to belong to the stored address, returned.
type Wallets interface {
	ProcessorWallet(ctx context.Context, botID string) (*botpay.ProcessorWallet, error)
	WalletKey(w botpay.ProcessorWallet) (x402.Key, x402.Address, error)
}

// ChainBalances reads a processor wallet with the token balance on chain
// that new signatures count on (nil without a wallet).
type ChainBalances interface {
	ProcessorWalletWithBalance(ctx context.Context, botID string) (*botpay.ProcessorWallet, error)
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
	Domain  x402.Domain
	Wallets Wallets
	// Chain, set in live mode, counts signatures against the balance on
	// chain; nil in the sandbox, where the stored balance counts.
	Chain ChainBalances
	Mail  OwnerMail
	// BaseURL is the public URL mails link to, no trailing slash.
	BaseURL string
	// Resources reads the 402 answers of resources a bot asks to sign for
	// (recipient_binding.go), through the outbound guard.
	Resources *http.Client
}

// Service signs x402 payments.
type Service struct {
	db        *kernel.DB
	outbox    *ledger.Outbox
	clock     botpay.Clock
	log       *slog.Logger
	domain    x402.Domain
	wallets   Wallets
	chain     ChainBalances
	mail      OwnerMail
	baseURL   string
	resources *http.Client
	// signingWallets holds, by bot id, the processor wallet (address and
	// sealed key) this process last signed with (presign).
	signingWallets sync.Map
	// signers keeps the bots' signing rules (signerConfig).
	signers configCache[signerConfig]
}

// New builds the Service.
func New(d Deps) *Service {
	log := d.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{db: d.DB, outbox: d.Outbox, clock: d.DB.Clock(), log: log, domain: d.Domain, wallets: d.Wallets,
		chain: d.Chain, mail: d.Mail, baseURL: d.BaseURL, resources: d.Resources}
}

// ErrNoProcessorWallet is the 404 of the signing endpoint.
var ErrNoProcessorWallet = botpay.ErrNoProcessorWallet

// wrapErr adds context to an error of the package's boundary; a domain
// error (*botpay.Error) stays as it is: its message is the answer.
func wrapErr(err error, format string, args ...any) error {
	if _, domain := err.(*botpay.Error); err == nil || domain {
		return err
	}
	return fmt.Errorf("payments: "+format+": %w", append(args, err)...)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
