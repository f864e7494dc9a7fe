// Package config reads botpay's settings from environment variables, with
// command-line flags overriding them. It owns names, defaults and the
// checks that refuse an unsafe start; the only thing it opens is the
// relayer key file, so the key never has to sit in the environment.
package config

import (
	"flag"
	"fmt"
	"math/big"
	"net/netip"
	"os"
	"strconv"
	"strings"
)

// Config is every setting of `botpay serve`.
type Config struct {
	Addr             string
	BaseURL          string
	DataDir          string
	DatabaseURL      string
	SecretKey        string
	TrustedProxies   []netip.Prefix
	WebhookAllowPriv bool
	LogLevel         string
	RegisterPerHour  int
	CheckoutPerHour  int
	SignupPerHour    int
	// Invoice e-mails per rolling 24 hours (BOTPAY_RATE_INVOICE_MAILS_*).
	InvoiceMailsPerBot   int
	InvoiceMailsPerOwner int
	SMTP                 SMTP
	SkillsDir            string
	Mode                 Mode
	X402                 X402
	// X402FeeCapWei caps maxFeePerGas of settlement transactions
	// (BOTPAY_X402_MAX_FEE_GWEI, fees.go).
	X402FeeCapWei *big.Int
	// X402MinRelayerGasWei is the relayer's ether below which /readyz
	// answers 503 in live mode (BOTPAY_X402_MIN_RELAYER_GAS_WEI, fees.go).
	X402MinRelayerGasWei *big.Int
	// MetricsAddr serves Prometheus metrics on its own listener; empty: off.
	MetricsAddr string
}

// SMTP configures the SMTP mail sender; Host empty means the file sender.
type SMTP struct {
	Host     string
	Port     int
	Username string
	Password string
	From     string
}

// Var documents one setting for --help and the README.
type Var struct{ Env, Flag, Default, Help string }

// Vars lists every setting.
var Vars = []Var{
	{"BOTPAY_ADDR", "addr", "127.0.0.1:8080", "listen address"},
	{"BOTPAY_BASE_URL", "base-url", "http://<addr>", "public URL used in every link the service hands out"},
	{"BOTPAY_DATA_DIR", "data-dir", "./botpay-data", "folder for the SQLite database, the secret key file and outgoing mail"},
	{"DATABASE_URL", "database-url", "", "postgres://… selects PostgreSQL instead of the embedded SQLite"},
	{"BOTPAY_SECRET_KEY", "secret-key", "", "64 hex chars; seals secrets at rest (default: generated into the data folder)"},
	{"BOTPAY_TRUSTED_PROXIES", "trusted-proxies", "", "comma-separated CIDRs whose X-Forwarded-For is believed"},
	{"BOTPAY_WEBHOOK_ALLOW_PRIVATE", "webhook-allow-private", "false", "allow webhook delivery (and MCP pay_x402_resource fetches) to private and loopback addresses"},
	{"BOTPAY_LOG_LEVEL", "log-level", "info", "debug, info, warn or error"},
	{"BOTPAY_RATE_REGISTER_PER_HOUR", "rate-register-per-hour", "3", "registrations per client IP per rolling hour"},
	{"BOTPAY_RATE_CHECKOUT_PER_HOUR", "rate-checkout-per-hour", "30", "checkout requests per bot per rolling hour"},
	{"BOTPAY_RATE_SIGNUP_PER_HOUR", "rate-signup-per-hour", "10", "owner sign-ups per client IP per rolling hour"},
	{"BOTPAY_RATE_INVOICE_MAILS_PER_BOT_PER_DAY", "rate-invoice-mails-per-bot-per-day", "50", "invoice e-mails per bot per rolling 24 hours"},
	{"BOTPAY_RATE_INVOICE_MAILS_PER_OWNER_PER_DAY", "rate-invoice-mails-per-owner-per-day", "200", "invoice e-mails per owner (all their bots) per rolling 24 hours"},
	{"BOTPAY_SMTP_HOST", "smtp-host", "", "SMTP server; empty writes mail to <data-dir>/mail"},
	{"BOTPAY_SMTP_PORT", "smtp-port", "587", "SMTP port"},
	{"BOTPAY_SMTP_USERNAME", "smtp-username", "", "SMTP user"},
	{"BOTPAY_SMTP_PASSWORD", "smtp-password", "", "SMTP password"},
	{"BOTPAY_SMTP_FROM", "smtp-from", "botpay <noreply@botpay.local>", "sender address"},
	{"BOTPAY_METRICS_ADDR", "metrics-addr", "", "listen address of the Prometheus /metrics endpoint (empty: off)"},
	{"BOTPAY_SKILLS_DIR", "skills-dir", "", "folder of vendor skill files that add to or override the built-in catalogue"},
	{"BOTPAY_MODE", "mode", "sandbox", "sandbox (no real money; the default) or live (x402 settles on chain; needs the chain settings and BOTPAY_SECRET_KEY)"},
	{"BOTPAY_X402_RPC_URL", "x402-rpc-url", "", "EVM JSON-RPC endpoint where live-mode x402 payments settle (transferWithAuthorization sent by the relayer)"},
	{"BOTPAY_X402_CHAIN_ID", "x402-chain-id", "8453", "EVM chain id (8453 Base, 84532 Base Sepolia)"},
	{"BOTPAY_X402_TOKEN", "x402-token", "", "0x address of the EIP-3009 token (default: USDC of a known chain)"},
	{"BOTPAY_X402_TOKEN_NAME", "x402-token-name", "", "EIP-712 domain name of the token (default: that of USDC on a known chain)"},
	{"BOTPAY_X402_TOKEN_VERSION", "x402-token-version", "", "EIP-712 domain version of the token (default: that of USDC on a known chain)"},
	{"BOTPAY_X402_RELAYER_KEY", "x402-relayer-key", "", "hex private key of the account that sends settlements and pays gas (prefer the _FILE form)"},
	{"BOTPAY_X402_RELAYER_KEY_FILE", "x402-relayer-key-file", "", "file holding the relayer's hex private key"},
	{"BOTPAY_X402_CONFIRMATIONS", "x402-confirmations", "1", "blocks, counting the including one, before a settlement is a sale"},
	{"BOTPAY_X402_MAX_FEE_GWEI", "x402-max-fee-gwei", "50", "most a settlement may pay per unit of gas, in gwei (maxFeePerGas cap; decimals allowed)"},
	{"BOTPAY_X402_EXPLORER_URL", "x402-explorer-url", "", "block explorer of the chain (such as https://basescan.org); receipts link the transaction at <url>/tx/<hash>"},
	{"BOTPAY_X402_MIN_RELAYER_GAS_WEI", "x402-min-relayer-gas-wei", "1000000000000000", "relayer ether, in wei, below which GET /readyz answers 503 in live mode (default 0.001 ether)"},
}

// Load parses flags over environment variables over defaults. extra, when
// not nil, registers a subcommand's own flags on the same flag set.
func Load(name string, args []string, getenv func(string) string, extra func(*flag.FlagSet)) (Config, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	if extra != nil {
		extra(fs)
	}
	values := map[string]*string{}
	for _, v := range Vars {
		def := v.Default
		if env := getenv(v.Env); env != "" {
			def = env
		}
		if v.Env == "BOTPAY_BASE_URL" && getenv(v.Env) == "" {
			def = ""
		}
		values[v.Env] = fs.String(v.Flag, def, v.Help+" ($"+v.Env+")")
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s [flags]\n\nEvery setting can also come from its environment variable:\n", name)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	get := func(env string) string { return strings.TrimSpace(*values[env]) }
	c := Config{
		Addr: get("BOTPAY_ADDR"), BaseURL: strings.TrimRight(get("BOTPAY_BASE_URL"), "/"), DataDir: get("BOTPAY_DATA_DIR"),
		DatabaseURL: get("DATABASE_URL"), SecretKey: get("BOTPAY_SECRET_KEY"), LogLevel: get("BOTPAY_LOG_LEVEL"),
		SkillsDir: get("BOTPAY_SKILLS_DIR"), Mode: Mode(strings.ToLower(get("BOTPAY_MODE"))), MetricsAddr: get("BOTPAY_METRICS_ADDR"),
		SMTP: SMTP{Host: get("BOTPAY_SMTP_HOST"), Username: get("BOTPAY_SMTP_USERNAME"),
			Password: get("BOTPAY_SMTP_PASSWORD"), From: get("BOTPAY_SMTP_FROM")},
	}
	if c.BaseURL == "" {
		c.BaseURL = "http://" + c.Addr
	}
	var err error
	if c.Mode != ModeSandbox && c.Mode != ModeLive {
		return c, fmt.Errorf("BOTPAY_MODE must be sandbox or live, not %q", c.Mode)
	}
	if c.X402FeeCapWei, err = feeCap(get("BOTPAY_X402_MAX_FEE_GWEI")); err != nil {
		return c, err
	}
	if c.X402MinRelayerGasWei, err = minRelayerGas(get("BOTPAY_X402_MIN_RELAYER_GAS_WEI")); err != nil {
		return c, err
	}
	if c.X402, err = loadX402(get); err != nil {
		return c, err
	}
	if c.WebhookAllowPriv, err = strconv.ParseBool(get("BOTPAY_WEBHOOK_ALLOW_PRIVATE")); err != nil {
		return c, fmt.Errorf("BOTPAY_WEBHOOK_ALLOW_PRIVATE: %w", err)
	}
	ints := map[string]*int{"BOTPAY_RATE_REGISTER_PER_HOUR": &c.RegisterPerHour,
		"BOTPAY_RATE_CHECKOUT_PER_HOUR": &c.CheckoutPerHour, "BOTPAY_RATE_SIGNUP_PER_HOUR": &c.SignupPerHour,
		"BOTPAY_RATE_INVOICE_MAILS_PER_BOT_PER_DAY":   &c.InvoiceMailsPerBot,
		"BOTPAY_RATE_INVOICE_MAILS_PER_OWNER_PER_DAY": &c.InvoiceMailsPerOwner,
		"BOTPAY_SMTP_PORT":                            &c.SMTP.Port}
	for env, dst := range ints {
		if *dst, err = strconv.Atoi(get(env)); err != nil || *dst < 0 {
			return c, fmt.Errorf("%s must be a non-negative integer", env)
		}
	}
	for _, p := range strings.Split(get("BOTPAY_TRUSTED_PROXIES"), ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if !strings.Contains(p, "/") {
			if a, err := netip.ParseAddr(p); err == nil {
				p = netip.PrefixFrom(a, a.BitLen()).String()
			}
		}
		prefix, err := netip.ParsePrefix(p)
		if err != nil {
			return c, fmt.Errorf("BOTPAY_TRUSTED_PROXIES: %q is not an address or CIDR", p)
		}
		c.TrustedProxies = append(c.TrustedProxies, prefix.Masked())
	}
	return c, nil
}

// Env is the process environment lookup.
func Env(name string) string { return os.Getenv(name) }
