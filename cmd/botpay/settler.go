package main

import (
	"fmt"
	"net/url"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/config"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// x402Settler picks the settler of x402 payments: nil (the sandbox, the
// embedded default) unless BOTPAY_X402_RPC_URL names an EVM node.
func x402Settler(cfg config.Config) (app.Settler, error) {
	if cfg.X402.RPCURL == "" {
		return nil, nil
	}
	if u, err := url.Parse(cfg.X402.RPCURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("BOTPAY_X402_RPC_URL must be an http(s) URL")
	}
	relayer, err := x402.ParseAddress(cfg.X402.Relayer)
	if err != nil {
		return nil, fmt.Errorf("BOTPAY_X402_RELAYER must be the 0x address of the account that submits settlements: %w", err)
	}
	return settle.JSONRPC{URL: cfg.X402.RPCURL, Relayer: relayer}, nil
}
