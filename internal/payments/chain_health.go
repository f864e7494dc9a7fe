package payments

import (
	"context"
	"math/big"
	"time"
)

// chainReadyTimeout bounds the readiness checks of the chain, so a node
// that hangs makes /readyz answer "not ready" well inside a load
// balancer's probe timeout.
const chainReadyTimeout = 3 * time.Second

// ChainReady is nil in the sandbox; in live mode it checks the node
// answers for the configured chain, the token has code and the relayer
// holds enough gas, and returns a *settle.NotReady naming the check that
// failed.
func (s *Service) ChainReady(ctx context.Context) error {
	if s.relay == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, chainReadyTimeout)
	defer cancel()
	return s.relay.Readiness(ctx)
}

// RelayerGasWei is the relayer's ether balance in wei (live mode only;
// nil without a chain).
func (s *Service) RelayerGasWei(ctx context.Context) (*big.Int, error) {
	if s.relay == nil {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, chainReadyTimeout)
	defer cancel()
	return s.relay.RelayerGas(ctx)
}

// ReplacedTransactions counts the stuck relayer transactions this process
// sent again with higher fees since it started.
func (s *Service) ReplacedTransactions() int64 { return s.replacements.Load() }
