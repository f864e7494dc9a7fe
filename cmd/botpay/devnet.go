package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/botpay/botpay/internal/devnet"
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/x402"
)

// devnetState is what `botpay devnet` keeps in its folder (devnet.json,
// mode 0600) so a restart finds the same chain, token and keys, and
// `botpay devnet mint` finds the running node. The keys are test keys of a
// local chain: never use them for real money.
type devnetState struct {
	RPCURL     string `json:"rpc_url"`
	Token      string `json:"token"`
	RelayerKey string `json:"relayer_key"`
	SecretKey  string `json:"secret_key"`
}

type devnetFlags struct {
	dir, chainDir string
	port          int
}

func (f *devnetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dir, "dir", envOr("BOTPAY_DEVNET_DIR", "botpay-devnet"), "folder of the devnet's state, chain and service data ($BOTPAY_DEVNET_DIR)")
	fs.StringVar(&f.chainDir, "chain-dir", "chain", "the repository's chain/ folder, with `npm ci --prefix chain` done")
	fs.IntVar(&f.port, "port", 8545, "port of the node's JSON-RPC on 127.0.0.1")
}

// devnetCommand runs `botpay devnet` (the node, until interrupted) or
// `botpay devnet mint ADDRESS AMOUNT`.
func devnetCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "mint" {
		return devnetMint(ctx, args[1:], stdout, stderr)
	}
	var f devnetFlags
	fs := flag.NewFlagSet("botpay devnet", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("usage: botpay devnet [flags] | botpay devnet mint ADDRESS AMOUNT")
	}
	if err := devnet.Missing(f.chainDir); err != nil {
		return fmt.Errorf("botpay devnet: %v; run `npm ci --prefix chain` from the repository's root (needs node ≥ 18), or pass --chain-dir", err)
	}
	dir, err := filepath.Abs(f.dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	state, err := loadDevnetState(dir)
	if err != nil {
		return err
	}
	return runDevnet(ctx, f, dir, state, stdout)
}

func runDevnet(ctx context.Context, f devnetFlags, dir string, state devnetState, stdout io.Writer) error {
	// --state loads the chain a previous run dumped at exit and dumps it
	// again, so the service's stored relayer nonce and balances stay true.
	node, rpc, err := devnet.StartAnvil(ctx, f.chainDir, f.port, "--state", filepath.Join(dir, "anvil-state.json"))
	if err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- node.Wait() }()
	stop := func() {
		node.Process.Signal(syscall.SIGINT) // anvil dumps its state on SIGINT
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			node.Process.Kill()
			<-exited
		}
	}
	state.RPCURL = fmt.Sprintf("http://127.0.0.1:%d", f.port)
	if err := prepareDevnet(ctx, f.chainDir, rpc, &state); err != nil {
		stop()
		return err
	}
	if err := saveDevnetState(dir, state); err != nil {
		stop()
		return err
	}
	env := devnetExports(dir, state)
	if err := os.WriteFile(filepath.Join(dir, "env"), []byte(env), 0o600); err != nil {
		stop()
		return err
	}
	fmt.Fprintf(stdout, "# botpay devnet: anvil at %s (chain %d, base-sepolia), test USDC at %s\n", state.RPCURL, devnet.ChainID, state.Token)
	fmt.Fprintf(stdout, "# In another terminal: . %s && botpay serve\n%s", filepath.Join(dir, "env"), env)
	fmt.Fprintln(stdout, "# Give test USDC to a wallet: botpay devnet mint ADDRESS AMOUNT. Ctrl-C stops the chain (its state is kept).")
	select {
	case <-ctx.Done():
		stop()
		return nil
	case err := <-exited:
		return fmt.Errorf("anvil stopped: %v", err)
	}
}

// prepareDevnet deploys the token unless the chain already holds it, and
// gives the relayer gas.
func prepareDevnet(ctx context.Context, chainDir string, rpc *evm.Client, state *devnetState) error {
	deployed := false
	if token, err := x402.ParseAddress(state.Token); err == nil {
		if deployed, err = devnet.HasCode(ctx, rpc, token); err != nil {
			return err
		}
	}
	if !deployed {
		code, err := devnet.Bytecode(chainDir)
		if err != nil {
			return err
		}
		token, err := devnet.Deploy(ctx, rpc, code)
		if err != nil {
			return err
		}
		state.Token = token.Hex()
	}
	relayer, err := x402.KeyFromHex(state.RelayerKey)
	if err != nil {
		return fmt.Errorf("devnet relayer key: %w", err)
	}
	return devnet.FundGas(ctx, rpc, relayer.Address())
}

// devnetExports are the settings of `botpay serve` in live mode on the
// devnet, and of `botpay bot pay` and `botpay mcp` signing on it.
func devnetExports(dir string, s devnetState) string {
	lines := []string{
		"BOTPAY_MODE=live",
		"BOTPAY_DATA_DIR=" + filepath.Join(dir, "data"),
		"BOTPAY_SECRET_KEY=" + s.SecretKey,
		"BOTPAY_X402_RPC_URL=" + s.RPCURL,
		fmt.Sprintf("BOTPAY_X402_CHAIN_ID=%d", devnet.ChainID),
		"BOTPAY_X402_TOKEN=" + s.Token,
		"BOTPAY_X402_TOKEN_NAME=" + devnet.TokenName,
		"BOTPAY_X402_TOKEN_VERSION=" + devnet.TokenVersion,
		"BOTPAY_X402_RELAYER_KEY=" + s.RelayerKey,
		"BOTPAY_X402_NETWORK=base-sepolia",
	}
	return "export " + strings.Join(lines, "\nexport ") + "\n"
}

func loadDevnetState(dir string) (devnetState, error) {
	var s devnetState
	data, err := os.ReadFile(filepath.Join(dir, "devnet.json"))
	switch {
	case errors.Is(err, os.ErrNotExist):
		s.RelayerKey, s.SecretKey = randomHex(32), randomHex(32)
		return s, nil
	case err != nil:
		return s, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("%s: %w", filepath.Join(dir, "devnet.json"), err)
	}
	return s, nil
}

func saveDevnetState(dir string, s devnetState) error {
	data, _ := json.MarshalIndent(s, "", "  ")
	return os.WriteFile(filepath.Join(dir, "devnet.json"), append(data, '\n'), 0o600)
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
