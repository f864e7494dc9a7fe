package payments

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/x402"
)

// CreateProcessorWallet gives an owned bot its processor wallet: a
// secp256k1 key drawn and sealed here; the owner sees only the EIP-55
// address. A bot has at most one, and its checkout pages create it too,
// so asking for it again answers the one the bot has.
func (s *Service) CreateProcessorWallet(ctx context.Context, owner botpay.Owner, botID string) (string, error) {
	if _, err := s.bots.OwnedBot(ctx, owner.ID, botID); err != nil {
		return "", err
	}
	return s.EnsureProcessorWallet(ctx, owner.ID, botID)
}

// EnsureProcessorWallet answers the bot's processor wallet address,
// creating the wallet when it has none. Of concurrent creators the unique
// bot_id lets one win; the others answer the winner's address.
func (s *Service) EnsureProcessorWallet(ctx context.Context, ownerID, botID string) (string, error) {
	if addr := s.ProcessorAddress(ctx, botID); addr != "" {
		return Checksummed(addr), nil
	}
	key, err := x402.GenerateKey()
	if err != nil {
		return "", err
	}
	addr := key.Address().Hex()
	sealed := s.sealer.Seal(key.Bytes(), keyAAD(botID))
	err = s.createProcessorWallet(ctx, ownerID, botID, addr, sealed)
	if errors.Is(err, kernel.ErrUnique) {
		if existing := s.ProcessorAddress(ctx, botID); existing != "" {
			return Checksummed(existing), nil
		}
	}
	return addr, err
}

// keyAAD binds a sealed key to its bot, so sealed keys cannot be swapped
// between rows.
func keyAAD(botID string) []byte { return []byte("processor-wallet-key:" + botID) }

// WalletKey unseals a processor wallet's key and checks it still belongs
// to the stored address, which it returns.
func (s *Service) WalletKey(w botpay.ProcessorWallet) (x402.Key, x402.Address, error) {
	raw, err := s.sealer.Open(w.SealedKey, keyAAD(w.BotID))
	if err != nil {
		return x402.Key{}, x402.Address{}, err
	}
	key, err := x402.KeyFromBytes(raw)
	if err != nil {
		return key, x402.Address{}, err
	}
	addr, err := x402.ParseAddress(w.Address)
	if err != nil {
		return x402.Key{}, x402.Address{}, err
	}
	// Deriving the address costs a scalar multiplication; a pair checked
	// once is remembered (a cache of a pure fact, not needed for
	// correctness).
	pair := w.BotID + w.Address + string(w.SealedKey) // never the plaintext key
	if _, seen := verifiedKeys.Load(pair); !seen {
		if key.Address() != addr {
			return x402.Key{}, x402.Address{}, errors.New("processor wallet key does not match its address")
		}
		verifiedKeys.Store(pair, struct{}{})
	}
	return key, addr, nil
}

var verifiedKeys sync.Map

// ProcessorWallet reads a bot's processor wallet with the address in its
// checksummed form; nil without one.
func (s *Service) ProcessorWallet(ctx context.Context, botID string) (*botpay.ProcessorWallet, error) {
	w, ok, err := s.readProcessorWallet(ctx, botID)
	if err != nil || !ok {
		return nil, err
	}
	w.Address = Checksummed(w.Address)
	return &w, nil
}

// ProcessorWalletWithBalance is ProcessorWallet with the balance new
// signatures count on: in live mode the token balance on chain (the
// stored balance is not used; funding it is refused).
func (s *Service) ProcessorWalletWithBalance(ctx context.Context, botID string) (*botpay.ProcessorWallet, error) {
	w, err := s.ProcessorWallet(ctx, botID)
	if err != nil || w == nil || s.chain == nil {
		return w, err
	}
	a, _ := x402.ParseAddress(w.Address)
	if w.Balance, w.BalanceReadAt, err = s.chainBalanceAt(ctx, a); err != nil {
		s.log.WarnContext(ctx, "processor wallet balance unreadable on chain", "bot_id", botID, "err", err)
		return nil, fmt.Errorf("%w: %w", errChainUnreadable, botpay.ChainUnavailable("the processor wallet's token balance"))
	}
	return w, nil
}

// errChainUnreadable is a live balance the node did not answer.
var errChainUnreadable = errors.New("payments: processor wallet balance unreadable on chain")

// ProcessorWalletUnread lets the status answer survive a node that does
// not answer: the wallet's balance is unknown (null, not 0: a bot must not
// take a fault for an empty wallet), and signing, which reads the chain
// itself, answers chain_unavailable meanwhile. Other errors stay errors.
func (s *Service) ProcessorWalletUnread(ctx context.Context, botID string, err error) (*botpay.ProcessorWallet, error) {
	if !errors.Is(err, errChainUnreadable) {
		return nil, err
	}
	w, err := s.ProcessorWallet(ctx, botID)
	if w != nil {
		w.Balance, w.Reserved, w.BalanceUnknown = 0, 0, true
	}
	return w, err
}

// Checksummed is a chain address in its EIP-55 form (as it was, when it is
// no address).
func Checksummed(addr string) string {
	a, err := x402.ParseAddress(addr)
	if err != nil {
		return addr
	}
	return a.Hex()
}

// ProcessorAddress is the bot's processor wallet address, "" without one.
func (s *Service) ProcessorAddress(ctx context.Context, botID string) string {
	w, err := s.ProcessorWallet(ctx, botID)
	if err != nil {
		s.log.WarnContext(ctx, "processor wallet unreadable", "bot_id", botID, "err", err)
	}
	if w == nil {
		return ""
	}
	return w.Address
}

// FundProcessorWallet credits the processor_wallet rail. Owners fund in
// USD; one USD buys one USDC, so amount cents become amount × 10,000
// micro-USDC exactly.
func (s *Service) FundProcessorWallet(ctx context.Context, owner botpay.Owner, botID string, amount botpay.Money) (botpay.Funding, error) {
	if _, err := s.bots.OwnedBot(ctx, owner.ID, botID); err != nil {
		return botpay.Funding{}, err
	}
	if s.live {
		return botpay.Funding{}, errLiveProcessorFunding
	}
	pf, err := s.fundProcessorWallet(ctx, owner.ID, botID, botpay.MicroOf(amount), "Funded by owner (USDC)")
	if err != nil {
		return botpay.Funding{}, err
	}
	w, err := s.ProcessorWallet(ctx, botID)
	if err != nil || w == nil {
		w = &pf.Wallet
	}
	return botpay.Funding{Transaction: pf.Transaction, Processor: w}, nil
}

// errLiveProcessorFunding: a live processor wallet holds what its address
// holds on chain, so an owner's say-so cannot add to it.
var errLiveProcessorFunding = botpay.Errorf(botpay.KindConflict, botpay.CodeLiveMode,
	"in live mode a processor wallet's balance is its on-chain token balance: fund it by sending USDC to its address")
