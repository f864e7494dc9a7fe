// Package devnet runs a local EVM chain for live mode on one machine:
// anvil (pinned in chain/package.json) with chain id 84532, so botpay and
// stock x402 clients call it base-sepolia, and the EIP-3009 test token of
// chain/contracts compiled with the pinned solc and deployed through
// botpay's own transaction signing. `botpay devnet` and the chain tests
// share it.
package devnet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/x402"
)

// ChainID is the chain id the node runs with (Base Sepolia's).
const ChainID = 84532

// TokenName and TokenVersion are the token's EIP-712 domain, USDC's on
// Base Sepolia.
const (
	TokenName    = "USDC"
	TokenVersion = "2"
)

// DeployerKey is anvil's first default account, funded with ether at
// genesis: a published test key, which deploys the token and sends the
// mints (the test token's mint is open to anyone).
const DeployerKey = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"

// Deployer is DeployerKey parsed.
func Deployer() x402.Key {
	k, _ := x402.KeyFromHex(DeployerKey)
	return k
}

// AnvilPath is the anvil binary npm installed into chainDir/node_modules.
func AnvilPath(chainDir string) string {
	return filepath.Join(chainDir, "node_modules", "@foundry-rs", "anvil-linux-amd64", "bin", "anvil")
}

// Missing says what of node, anvil and solc is not installed, nil when
// all are.
func Missing(chainDir string) error {
	if _, err := exec.LookPath("node"); err != nil {
		return errors.New("node is not installed")
	}
	if _, err := os.Stat(AnvilPath(chainDir)); err != nil {
		return fmt.Errorf("anvil is not installed in %s/node_modules", chainDir)
	}
	if _, err := os.Stat(filepath.Join(chainDir, "node_modules", "solc", "package.json")); err != nil {
		return fmt.Errorf("solc is not installed in %s/node_modules", chainDir)
	}
	return nil
}

// StartAnvil runs anvil on 127.0.0.1:port with the chain id; extra
// arguments follow. It returns once the node answers.
func StartAnvil(ctx context.Context, chainDir string, port int, extra ...string) (*exec.Cmd, *evm.Client, error) {
	args := append([]string{"--host", "127.0.0.1", "--port", fmt.Sprint(port), "--chain-id", fmt.Sprint(ChainID)}, extra...)
	cmd := exec.Command(AnvilPath(chainDir), args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("start anvil: %w", err)
	}
	rpc := evm.NewClient(fmt.Sprintf("http://127.0.0.1:%d", port))
	deadline := time.Now().Add(20 * time.Second)
	for {
		id, err := rpc.ChainID(ctx)
		if err == nil && id == ChainID {
			return cmd, rpc, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, nil, fmt.Errorf("anvil did not answer: %v\n%s", err, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Bytecode compiles the token with the pinned solc (node compile.mjs).
func Bytecode(chainDir string) ([]byte, error) {
	cmd := exec.Command("node", "compile.mjs")
	cmd.Dir = chainDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("solc: %v: %s", err, stderr.String())
	}
	var c struct{ Bytecode string }
	if err := json.Unmarshal(out, &c); err != nil {
		return nil, err
	}
	return evm.ParseHexBytes(c.Bytecode)
}

// Deploy sends the token's contract creation from the deployer and
// returns its address.
func Deploy(ctx context.Context, rpc *evm.Client, bytecode []byte) (x402.Address, error) {
	code := append(append([]byte{}, bytecode...), constructorArgs(TokenName, TokenVersion)...)
	r, err := Send(ctx, rpc, Deployer(), nil, code)
	if err != nil {
		return x402.Address{}, fmt.Errorf("deploy: %w", err)
	}
	return x402.ParseAddress(r.ContractAddress)
}

// constructorArgs ABI-encodes (string, string).
func constructorArgs(a, b string) []byte {
	tail := func(s string) []byte {
		out := evm.WordUint(uint64(len(s)))
		padded := make([]byte, (len(s)+31)/32*32)
		copy(padded, s)
		return append(out, padded...)
	}
	ta, tb := tail(a), tail(b)
	out := evm.WordUint(64)
	out = append(out, evm.WordUint(uint64(64+len(ta)))...)
	return append(append(out, ta...), tb...)
}

// Send signs a transaction from key with internal/evm, sends it and waits
// for its successful receipt (the node mines at once unless automine is
// off). Callers sending from one key concurrently serialize themselves.
func Send(ctx context.Context, rpc *evm.Client, key x402.Key, to *x402.Address, data []byte) (evm.Receipt, error) {
	nonce, err := rpc.PendingNonce(ctx, key.Address())
	if err != nil {
		return evm.Receipt{}, err
	}
	tx := evm.DynamicFeeTx{ChainID: ChainID, Nonce: nonce, MaxPriorityFeePerGas: big.NewInt(1_000_000_000),
		MaxFeePerGas: big.NewInt(100_000_000_000), Gas: 3_000_000, To: to, Data: data}
	signed, err := tx.Sign(key)
	if err != nil {
		return evm.Receipt{}, err
	}
	hash, err := rpc.SendRawTransaction(ctx, signed.Raw)
	if err != nil || hash != signed.HashHex() {
		return evm.Receipt{}, fmt.Errorf("send: %s, %v (signed %s)", hash, err, signed.HashHex())
	}
	for i := 0; i < 400; i++ {
		r, err := rpc.TransactionReceipt(ctx, hash)
		if err != nil {
			return evm.Receipt{}, err
		}
		if r != nil {
			if !r.Succeeded() {
				return *r, fmt.Errorf("transaction %s reverted", hash)
			}
			return *r, nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	return evm.Receipt{}, fmt.Errorf("no receipt for %s", hash)
}

// Mint gives an address micro-units of the token.
func Mint(ctx context.Context, rpc *evm.Client, token, to x402.Address, micro uint64) error {
	_, err := Send(ctx, rpc, Deployer(), &token, evm.Call("mint(address,uint256)", evm.WordAddress(to), evm.WordUint(micro)))
	return err
}

// Balance is the token balance of an address in micro-units.
func Balance(ctx context.Context, rpc *evm.Client, token, a x402.Address) (uint64, error) {
	out, err := rpc.EthCall(ctx, evm.CallMsg{To: token, Data: evm.Call("balanceOf(address)", evm.WordAddress(a))})
	if err != nil {
		return 0, err
	}
	return evm.WordBig(out).Uint64(), nil
}

// FundGas gives an address one ether for gas (anvil_setBalance).
func FundGas(ctx context.Context, rpc *evm.Client, a x402.Address) error {
	return rpc.Call(ctx, "anvil_setBalance", nil, a.Hex(), "0xde0b6b3a7640000")
}

// HasCode reports whether a contract lives at a.
func HasCode(ctx context.Context, rpc *evm.Client, a x402.Address) (bool, error) {
	var code string
	if err := rpc.Call(ctx, "eth_getCode", &code, a.Hex(), "latest"); err != nil {
		return false, err
	}
	return code != "" && code != "0x", nil
}
