package config

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/x402"
)

// Validate refuses a start that would be unsafe: a malformed chain setting
// in any mode, and in live mode any missing setting that real money needs.
// The error names every problem at once, so one restart fixes them all; it
// never repeats a key's value.
func (c Config) Validate() error {
	problems := c.X402.malformed()
	if c.Mode.Live() {
		if missing := c.missingForLive(); len(missing) > 0 {
			problems = append([]string{"BOTPAY_MODE=live needs " + strings.Join(missing, ", ")}, problems...)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return errors.New(strings.Join(problems, "; "))
}

func (c Config) missingForLive() []string {
	var missing []string
	if c.SecretKey == "" {
		missing = append(missing, "BOTPAY_SECRET_KEY (the same on every replica)")
	}
	if c.X402.RPCURL == "" {
		missing = append(missing, "BOTPAY_X402_RPC_URL")
	}
	if c.X402.RelayerKey == "" {
		missing = append(missing, "BOTPAY_X402_RELAYER_KEY (or BOTPAY_X402_RELAYER_KEY_FILE)")
	}
	for _, s := range []struct{ env, value string }{
		{"BOTPAY_X402_TOKEN", c.X402.Token},
		{"BOTPAY_X402_TOKEN_NAME", c.X402.TokenName},
		{"BOTPAY_X402_TOKEN_VERSION", c.X402.TokenVersion},
	} {
		if s.value == "" {
			missing = append(missing, s.env+" (chain "+strconv.FormatInt(c.X402.ChainID, 10)+" has no default)")
		}
	}
	return missing
}

func (x X402) malformed() []string {
	var problems []string
	if x.RPCURL != "" {
		if u, err := url.Parse(x.RPCURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			problems = append(problems, "BOTPAY_X402_RPC_URL must be an http(s) URL")
		}
	}
	if x.Token != "" {
		if _, err := x402.ParseAddress(x.Token); err != nil {
			problems = append(problems, "BOTPAY_X402_TOKEN must be a 0x address with 40 hex digits (and a correct checksum if mixed-case)")
		}
	}
	if x.RelayerKey != "" {
		if _, err := x402.KeyFromHex(x.RelayerKey); err != nil {
			problems = append(problems, "BOTPAY_X402_RELAYER_KEY must be a private key of 64 hex digits, with or without 0x")
		}
	}
	return problems
}
