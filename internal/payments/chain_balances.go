package payments

import (
	"context"
	"sync"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/x402"
)

// chainBalanceTTL is how long a processor wallet's on-chain balance is
// reused: a burst of signatures reads the node once, and a payment that
// just landed shows within seconds.
const chainBalanceTTL = 3 * time.Second

// chainBalances caches token balances read from the chain, by address.
type chainBalances struct {
	mu      sync.Mutex
	entries map[x402.Address]cachedBalance
	// forgets counts ForgetChainBalance calls. A read that a forget
	// overtook is answered but not cached: it may show the change the
	// forget announced (a refund mined) with a read time before the
	// change's record, and signing, which subtracts refunds recorded
	// after the read, would count that refund twice for the cache's life.
	forgets uint64
}

type cachedBalance struct {
	micro botpay.Micro
	at    time.Time
}

// chainBalanceAt is a processor wallet's token balance on chain in live
// mode, at most chainBalanceTTL old, with the time it was read from the
// node.
func (s *Service) chainBalanceAt(ctx context.Context, a x402.Address) (botpay.Micro, time.Time, error) {
	now := time.Now()
	c := &s.balances
	c.mu.Lock()
	e, ok := c.entries[a]
	forgets := c.forgets
	c.mu.Unlock()
	if ok && now.Sub(e.at) < chainBalanceTTL {
		return e.micro, e.at, nil
	}
	b, err := s.chain.TokenBalance(ctx, a)
	if err != nil {
		return 0, now, err
	}
	micro := botpay.Micro(b.Int64())
	if !b.IsInt64() {
		micro = botpay.MaxSigningAmount * 1000 // more than any signature may promise
	}
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[x402.Address]cachedBalance{}
	}
	if c.forgets == forgets {
		c.entries[a] = cachedBalance{micro: micro, at: now}
	}
	c.mu.Unlock()
	return micro, now, nil
}

// ForgetChainBalance drops a cached balance that a settlement or a refund
// changed.
func (s *Service) ForgetChainBalance(a x402.Address) {
	s.balances.mu.Lock()
	delete(s.balances.entries, a)
	s.balances.forgets++
	s.balances.mu.Unlock()
}

// FreshChainBalance reads a processor wallet's token balance from the node
// now (and caches it), with the time of the read: a refund is judged
// against what the chain holds, not against a read of a few seconds ago.
// A node that does not answer is chain_unavailable.
func (s *Service) FreshChainBalance(ctx context.Context, a x402.Address) (botpay.Micro, time.Time, error) {
	s.ForgetChainBalance(a)
	b, at, err := s.chainBalanceAt(ctx, a)
	if err != nil {
		s.log.WarnContext(ctx, "processor wallet balance unreadable on chain", "address", a.Hex(), "err", err)
		return 0, at, botpay.ChainUnavailable("the processor wallet's token balance")
	}
	return b, at, nil
}
