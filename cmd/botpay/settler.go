package main

import (
	"fmt"

	"github.com/botpay/botpay/internal/config"
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// x402Chain picks where x402 payments settle: on the configured chain in
// live mode (the relayer signs and sends its own transactions), in the
// ledger in the sandbox. Both sign and verify for the configured token's
// EIP-712 domain (USDC on Base by default).
func x402Chain(cfg config.Config) (*settle.Chain, x402.Domain, error) {
	x := cfg.X402
	domain := x402.Domain{Name: x.TokenName, Version: x.TokenVersion, ChainID: uint64(x.ChainID)}
	if x.Token == "" {
		domain = x402.BaseUSDC // a chain without a default token, in the sandbox
	} else {
		token, err := x402.ParseAddress(x.Token)
		if err != nil {
			return nil, domain, fmt.Errorf("BOTPAY_X402_TOKEN: %w", err)
		}
		domain.Contract = token
	}
	if !cfg.Mode.Live() {
		return nil, domain, nil
	}
	key, err := x402.KeyFromHex(x.RelayerKey)
	if err != nil {
		return nil, domain, fmt.Errorf("BOTPAY_X402_RELAYER_KEY: %w", err)
	}
	return &settle.Chain{RPC: evm.NewClient(x.RPCURL), Key: key, Domain: domain, Confirmations: x.Confirmations,
		MaxFeePerGas: cfg.X402FeeCapWei, MinRelayerGas: cfg.X402MinRelayerGasWei}, domain, nil
}
