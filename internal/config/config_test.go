package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	relayerKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	secretKeyHex  = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
)

func load(t *testing.T, env map[string]string, args ...string) (Config, error) {
	t.Helper()
	return Load("botpay serve", args, func(name string) string { return env[name] }, nil)
}

func TestDefaultsAreTheSandboxOnBaseUSDC(t *testing.T) {
	t.Parallel()
	c, err := load(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode != ModeSandbox || c.Mode.Live() {
		t.Errorf("mode = %q", c.Mode)
	}
	want := X402{ChainID: 8453, Token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", TokenName: "USD Coin", TokenVersion: "2", Confirmations: 1}
	if c.X402 != want {
		t.Errorf("x402 = %+v, want %+v", c.X402, want)
	}
	if c.X402.Network() != "base" {
		t.Errorf("network = %q", c.X402.Network())
	}
	if err := c.Validate(); err != nil {
		t.Errorf("default settings refused: %v", err)
	}
}

func TestChainSettings(t *testing.T) {
	t.Parallel()
	keyFile := filepath.Join(t.TempDir(), "relayer.key")
	if err := os.WriteFile(keyFile, []byte("0x"+relayerKeyHex+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		env  map[string]string
		args []string
		want X402
	}{
		{"base sepolia takes its own USDC and domain", map[string]string{"BOTPAY_X402_CHAIN_ID": "84532"}, nil,
			X402{ChainID: 84532, Token: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", TokenName: "USDC", TokenVersion: "2", Confirmations: 1}},
		{"settings override the chain's defaults", map[string]string{"BOTPAY_X402_CHAIN_ID": "84532",
			"BOTPAY_X402_TOKEN": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "BOTPAY_X402_TOKEN_NAME": "Test USD",
			"BOTPAY_X402_TOKEN_VERSION": "1", "BOTPAY_X402_CONFIRMATIONS": "3"}, nil,
			X402{ChainID: 84532, Token: "0x5FbDB2315678afecb367f032d93F642f64180aa3", TokenName: "Test USD", TokenVersion: "1", Confirmations: 3}},
		{"an unknown chain has no token", map[string]string{"BOTPAY_X402_CHAIN_ID": "31337"}, nil,
			X402{ChainID: 31337, Confirmations: 1}},
		{"the key comes from its setting", map[string]string{"BOTPAY_X402_RELAYER_KEY": relayerKeyHex}, nil,
			X402{ChainID: 8453, Token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", TokenName: "USD Coin", TokenVersion: "2", Confirmations: 1, RelayerKey: relayerKeyHex}},
		{"the key comes from its file, trimmed", map[string]string{"BOTPAY_X402_RELAYER_KEY_FILE": keyFile}, nil,
			X402{ChainID: 8453, Token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", TokenName: "USD Coin", TokenVersion: "2", Confirmations: 1, RelayerKey: "0x" + relayerKeyHex}},
		{"flags override the environment", map[string]string{"BOTPAY_X402_CHAIN_ID": "8453"}, []string{"--x402-chain-id", "84532", "--x402-rpc-url", "http://127.0.0.1:8545"},
			X402{RPCURL: "http://127.0.0.1:8545", ChainID: 84532, Token: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", TokenName: "USDC", TokenVersion: "2", Confirmations: 1}},
		{"the explorer loses its trailing slash", map[string]string{"BOTPAY_X402_CHAIN_ID": "31337", "BOTPAY_X402_EXPLORER_URL": "https://sepolia.basescan.org/"}, nil,
			X402{ChainID: 31337, Confirmations: 1, ExplorerURL: "https://sepolia.basescan.org"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := load(t, tc.env, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			if c.X402 != tc.want {
				t.Fatalf("x402 = %+v\nwant   %+v", c.X402, tc.want)
			}
		})
	}
}

func TestLoadRefusesUnreadableSettings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"unknown mode", map[string]string{"BOTPAY_MODE": "production"}, "BOTPAY_MODE must be sandbox or live"},
		{"chain id not a number", map[string]string{"BOTPAY_X402_CHAIN_ID": "base"}, "BOTPAY_X402_CHAIN_ID"},
		{"chain id zero", map[string]string{"BOTPAY_X402_CHAIN_ID": "0"}, "BOTPAY_X402_CHAIN_ID"},
		{"no confirmations", map[string]string{"BOTPAY_X402_CONFIRMATIONS": "0"}, "BOTPAY_X402_CONFIRMATIONS"},
		{"key and key file", map[string]string{"BOTPAY_X402_RELAYER_KEY": relayerKeyHex, "BOTPAY_X402_RELAYER_KEY_FILE": "/k"}, "not both"},
		{"missing key file", map[string]string{"BOTPAY_X402_RELAYER_KEY_FILE": "/nonexistent/relayer.key"}, "BOTPAY_X402_RELAYER_KEY_FILE"},
		{"explorer not a URL", map[string]string{"BOTPAY_X402_EXPLORER_URL": "basescan.org"}, "BOTPAY_X402_EXPLORER_URL"},
		{"explorer with a query", map[string]string{"BOTPAY_X402_EXPLORER_URL": "https://basescan.org/?a=1"}, "BOTPAY_X402_EXPLORER_URL"},
		{"explorer of another scheme", map[string]string{"BOTPAY_X402_EXPLORER_URL": "javascript:alert(1)"}, "BOTPAY_X402_EXPLORER_URL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if _, err := load(t, tc.env); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestModeIsCaseInsensitiveAndAFlag(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		args []string
	}{{map[string]string{"BOTPAY_MODE": "LIVE"}, nil}, {nil, []string{"--mode", "live"}}} {
		c, err := load(t, tc.env, tc.args...)
		if err != nil || c.Mode != ModeLive || !c.Mode.Live() {
			t.Errorf("%v %v: mode %q, %v", tc.env, tc.args, c.Mode, err)
		}
	}
}

func liveEnv(overrides map[string]string) map[string]string {
	env := map[string]string{"BOTPAY_MODE": "live", "BOTPAY_SECRET_KEY": secretKeyHex,
		"BOTPAY_X402_RPC_URL": "https://sepolia.base.org", "BOTPAY_X402_CHAIN_ID": "84532", "BOTPAY_X402_RELAYER_KEY": relayerKeyHex}
	for k, v := range overrides {
		if v == "" {
			delete(env, k)
		} else {
			env[k] = v
		}
	}
	return env
}

func TestValidate(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		env     map[string]string
		want    []string // every one must be named
		notWant []string
	}{
		{"complete live settings start", liveEnv(nil), nil, nil},
		{"live without anything names every missing setting", map[string]string{"BOTPAY_MODE": "live"},
			[]string{"BOTPAY_SECRET_KEY", "BOTPAY_X402_RPC_URL", "BOTPAY_X402_RELAYER_KEY"}, []string{"BOTPAY_X402_TOKEN"}},
		{"live without the secret key", liveEnv(map[string]string{"BOTPAY_SECRET_KEY": ""}), []string{"BOTPAY_SECRET_KEY"}, []string{"RPC_URL", "RELAYER_KEY"}},
		{"live without the relayer key", liveEnv(map[string]string{"BOTPAY_X402_RELAYER_KEY": ""}), []string{"BOTPAY_X402_RELAYER_KEY"}, []string{"SECRET_KEY"}},
		{"live on an unknown chain needs the token and its domain", liveEnv(map[string]string{"BOTPAY_X402_CHAIN_ID": "31337"}),
			[]string{"BOTPAY_X402_TOKEN ", "BOTPAY_X402_TOKEN_NAME", "BOTPAY_X402_TOKEN_VERSION"}, []string{"RPC_URL"}},
		{"live on an unknown chain with its token starts", liveEnv(map[string]string{"BOTPAY_X402_CHAIN_ID": "31337",
			"BOTPAY_X402_TOKEN": "0x5fbdb2315678afecb367f032d93f642f64180aa3", "BOTPAY_X402_TOKEN_NAME": "USDC", "BOTPAY_X402_TOKEN_VERSION": "2"}), nil, nil},
		{"malformed relayer key", liveEnv(map[string]string{"BOTPAY_X402_RELAYER_KEY": "0x1234"}), []string{"BOTPAY_X402_RELAYER_KEY must be"}, []string{"0x1234"}},
		{"zero relayer key", liveEnv(map[string]string{"BOTPAY_X402_RELAYER_KEY": strings.Repeat("0", 64)}), []string{"BOTPAY_X402_RELAYER_KEY must be"}, nil},
		{"malformed token address", liveEnv(map[string]string{"BOTPAY_X402_TOKEN": "0x036cbd53842c5426634e7929541ec2318f3dcf7"}), []string{"BOTPAY_X402_TOKEN must be"}, nil},
		{"token with a wrong checksum", liveEnv(map[string]string{"BOTPAY_X402_TOKEN": "0x036CbD53842c5426634e7929541eC2318f3dCF7E"}), []string{"BOTPAY_X402_TOKEN must be"}, nil},
		{"rpc url without a scheme", liveEnv(map[string]string{"BOTPAY_X402_RPC_URL": "127.0.0.1:8545"}), []string{"BOTPAY_X402_RPC_URL must be"}, nil},
		{"sandbox needs no chain", map[string]string{}, nil, nil},
		{"sandbox still refuses a malformed key", map[string]string{"BOTPAY_X402_RELAYER_KEY": "nothex"}, []string{"BOTPAY_X402_RELAYER_KEY must be"}, []string{"live"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := load(t, tc.env)
			if err != nil {
				t.Fatal(err)
			}
			err = c.Validate()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted, want an error naming %v", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(err.Error(), w) {
					t.Errorf("error %q names %q", err, w)
				}
			}
		})
	}
}

func TestFeeCapIsReadInGwei(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want int64
	}{
		{nil, 50_000_000_000},
		{map[string]string{"BOTPAY_X402_MAX_FEE_GWEI": "0.25"}, 250_000_000},
	} {
		c, err := load(t, tc.env)
		if err != nil || c.X402FeeCapWei.Int64() != tc.want {
			t.Errorf("%v: cap %v, %v", tc.env, c.X402FeeCapWei, err)
		}
	}
	for _, bad := range []string{"0", "-1", "ten"} {
		if _, err := load(t, map[string]string{"BOTPAY_X402_MAX_FEE_GWEI": bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestMinRelayerGasIsReadInWeiWithAMilliEtherDefault(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  map[string]string
		want int64
	}{
		{nil, 1_000_000_000_000_000},
		{map[string]string{"BOTPAY_X402_MIN_RELAYER_GAS_WEI": "0"}, 0},
		{map[string]string{"BOTPAY_X402_MIN_RELAYER_GAS_WEI": "25000000000000000"}, 25_000_000_000_000_000},
	} {
		c, err := load(t, tc.env)
		if err != nil || c.X402MinRelayerGasWei.Int64() != tc.want {
			t.Errorf("%v: minimum %v, %v", tc.env, c.X402MinRelayerGasWei, err)
		}
	}
	for _, bad := range []string{"-1", "0.5", "one"} {
		if _, err := load(t, map[string]string{"BOTPAY_X402_MIN_RELAYER_GAS_WEI": bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
