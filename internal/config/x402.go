package config

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// Mode says whether money is real: the sandbox (the default, for the
// one-command start) credits what nobody paid; live mode routes no sandbox
// endpoint and settles x402 payments on chain.
type Mode string

// The modes of BOTPAY_MODE.
const (
	ModeSandbox Mode = "sandbox"
	ModeLive    Mode = "live"
)

// Live reports whether money is real.
func (m Mode) Live() bool { return m == ModeLive }

// X402 is the chain x402 payments settle on, and the relayer that pays gas.
type X402 struct {
	RPCURL        string
	ChainID       int64
	Token         string // 0x address of the EIP-3009 token
	TokenName     string // EIP-712 domain name
	TokenVersion  string // EIP-712 domain version
	RelayerKey    string // hex private key, with or without 0x
	Confirmations int    // blocks counting the including one; 1 means mined
	// ExplorerURL is a block explorer of the chain, no trailing slash;
	// receipts link a transaction at ExplorerURL/tx/<hash>. Empty: no link.
	ExplorerURL string
}

// Chain is what botpay knows of a chain without being told.
type Chain struct {
	Network      string // the x402 v1 network name
	Token        string // USDC
	TokenName    string
	TokenVersion string
}

// KnownChains are the chains whose USDC is the default token.
var KnownChains = map[int64]Chain{
	8453:  {Network: "base", Token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", TokenName: "USD Coin", TokenVersion: "2"},
	84532: {Network: "base-sepolia", Token: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", TokenName: "USDC", TokenVersion: "2"},
}

// Network is the x402 v1 name of the configured chain ("" when unknown).
func (x X402) Network() string { return KnownChains[x.ChainID].Network }

func loadX402(get func(string) string) (X402, error) {
	x := X402{RPCURL: get("BOTPAY_X402_RPC_URL"), Token: get("BOTPAY_X402_TOKEN"), TokenName: get("BOTPAY_X402_TOKEN_NAME"),
		TokenVersion: get("BOTPAY_X402_TOKEN_VERSION"), ExplorerURL: strings.TrimRight(get("BOTPAY_X402_EXPLORER_URL"), "/")}
	var err error
	if x.ExplorerURL != "" && !explorerURL(x.ExplorerURL) {
		return x, fmt.Errorf("BOTPAY_X402_EXPLORER_URL must be an absolute https or http URL without query or fragment")
	}
	if x.ChainID, err = strconv.ParseInt(get("BOTPAY_X402_CHAIN_ID"), 10, 64); err != nil || x.ChainID <= 0 {
		return x, fmt.Errorf("BOTPAY_X402_CHAIN_ID must be a positive integer")
	}
	if x.Confirmations, err = strconv.Atoi(get("BOTPAY_X402_CONFIRMATIONS")); err != nil || x.Confirmations < 1 {
		return x, fmt.Errorf("BOTPAY_X402_CONFIRMATIONS must be an integer of at least 1 (1 means mined)")
	}
	if known, ok := KnownChains[x.ChainID]; ok {
		x.Token = or(x.Token, known.Token)
		x.TokenName = or(x.TokenName, known.TokenName)
		x.TokenVersion = or(x.TokenVersion, known.TokenVersion)
	}
	x.RelayerKey, err = relayerKey(get("BOTPAY_X402_RELAYER_KEY"), get("BOTPAY_X402_RELAYER_KEY_FILE"))
	return x, err
}

// relayerKey reads the key from the setting or from the file it names; both
// at once is refused, since one of them would be silently ignored.
func relayerKey(key, file string) (string, error) {
	if file == "" {
		return key, nil
	}
	if key != "" {
		return "", fmt.Errorf("set BOTPAY_X402_RELAYER_KEY or BOTPAY_X402_RELAYER_KEY_FILE, not both")
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("BOTPAY_X402_RELAYER_KEY_FILE: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// explorerURL accepts the base of a block explorer: a page address that
// receipts extend with /tx/<hash>, so it carries no query or fragment.
func explorerURL(v string) bool {
	u, err := url.Parse(v)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil &&
		u.RawQuery == "" && u.Fragment == "" && !strings.ContainsAny(v, " ?#")
}

func or(value, fallback string) string {
	if value != "" {
		return value
	}
	return fallback
}
