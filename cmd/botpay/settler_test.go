package main

import (
	"math/big"
	"testing"

	"github.com/botpay/botpay/internal/config"
	"github.com/botpay/botpay/internal/x402"
)

func TestX402ChainIsLiveOnlyAndSignsForTheConfiguredToken(t *testing.T) {
	t.Parallel()
	sepolia := config.X402{RPCURL: "http://127.0.0.1:8545", ChainID: 84532, Token: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
		TokenName: "USDC", TokenVersion: "2", Confirmations: 2,
		RelayerKey: "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"}
	chain, domain, err := x402Chain(config.Config{Mode: config.ModeSandbox, X402: sepolia})
	if chain != nil || err != nil || domain.ChainID != 84532 || domain.Name != "USDC" || domain.Network() != "base-sepolia" {
		t.Fatalf("sandbox = %v, %+v, %v", chain, domain, err)
	}
	chain, domain, err = x402Chain(config.Config{Mode: config.ModeLive, X402: sepolia, X402FeeCapWei: big.NewInt(7)})
	if err != nil || chain == nil || chain.Domain != domain || chain.Confirmations != 2 || chain.MaxFeePerGas.Int64() != 7 ||
		chain.Relayer().Hex() != "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23" || chain.RPC.URL != sepolia.RPCURL {
		t.Fatalf("live = %+v, %+v, %v", chain, domain, err)
	}
	if _, domain, _ := x402Chain(config.Config{X402: config.X402{ChainID: 8453}}); domain != x402.BaseUSDC {
		t.Fatalf("no token = %+v", domain)
	}
}
