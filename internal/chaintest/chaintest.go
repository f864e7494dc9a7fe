// Package chaintest runs a real EVM node for tests: anvil (pinned in
// chain/package.json) on a free loopback port with chain id 84532, so
// stock x402 clients call it base-sepolia, and the EIP-3009 test token of
// chain/contracts compiled with the pinned solc and deployed through
// botpay's own transaction signing. Tests skip when node, anvil or solc
// are missing, unless CHAIN_TESTS_REQUIRED=1.
package chaintest

import (
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/devnet"
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/suite"
	"github.com/botpay/botpay/internal/x402"
)

// ChainID, TokenName and TokenVersion are the local chain's, as
// `botpay devnet` runs it.
const (
	ChainID      = devnet.ChainID
	TokenName    = devnet.TokenName
	TokenVersion = devnet.TokenVersion
)

// Node is a running anvil with the token deployed.
type Node struct {
	URL      string
	RPC      *evm.Client
	Token    x402.Address
	Deployer x402.Key
	t        testing.TB
	cmd      *exec.Cmd
	mu       sync.Mutex // serializes the deployer's transactions
}

// Domain is the token's EIP-712 domain on this node.
func (n *Node) Domain() x402.Domain {
	return x402.Domain{Name: TokenName, Version: TokenVersion, ChainID: ChainID, Contract: n.Token}
}

// Dir is the repository's chain/ folder.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "chain")
}

// AnvilPath is the anvil binary npm installed into chain/node_modules.
func AnvilPath() string { return devnet.AnvilPath(Dir()) }

// Require skips (or fails, with CHAIN_TESTS_REQUIRED=1) unless node, anvil
// and solc are installed.
func Require(t testing.TB) {
	t.Helper()
	if err := devnet.Missing(Dir()); err != nil {
		suite.Chain.Need(t, err.Error())
	}
	suite.Chain.Need(t)
}

// Start runs a fresh node with the token deployed; it stops with the test.
func Start(t testing.TB) *Node {
	t.Helper()
	Require(t)
	port := freePort(t)
	cmd, rpc, err := devnet.StartAnvil(context.Background(), Dir(), port)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) // a second Wait after Stop only errs
	n := &Node{URL: fmt.Sprintf("http://127.0.0.1:%d", port), RPC: rpc, Deployer: devnet.Deployer(), t: t, cmd: cmd}
	n.Token = n.deploy(t)
	n.watchPool(t)
	return n
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// deploy sends the contract creation through internal/evm's own signing:
// a node accepting it is a test of the relayer's transactions too.
func (n *Node) deploy(t testing.TB) x402.Address {
	n.mu.Lock()
	defer n.mu.Unlock()
	addr, err := devnet.Deploy(context.Background(), n.RPC, bytecode(t))
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// Send signs a transaction from key with internal/evm, sends it and waits
// for its receipt (the node mines at once unless automine is off).
func (n *Node) Send(t testing.TB, key x402.Key, to *x402.Address, data []byte) evm.Receipt {
	t.Helper()
	n.mu.Lock()
	defer n.mu.Unlock()
	r, err := devnet.Send(context.Background(), n.RPC, key, to, data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Mint gives an address micro-units of the token.
func (n *Node) Mint(t testing.TB, to x402.Address, micro uint64) {
	t.Helper()
	n.Send(t, n.Deployer, &n.Token, evm.Call("mint(address,uint256)", evm.WordAddress(to), evm.WordUint(micro)))
}

// Transfer moves tokens from key's account.
func (n *Node) Transfer(t testing.TB, key x402.Key, to x402.Address, micro uint64) {
	t.Helper()
	n.Send(t, key, &n.Token, evm.Call("transfer(address,uint256)", evm.WordAddress(to), evm.WordUint(micro)))
}

// Balance is the token balance of an address in micro-units.
func (n *Node) Balance(t testing.TB, a x402.Address) uint64 {
	t.Helper()
	out, err := n.RPC.EthCall(context.Background(), evm.CallMsg{To: n.Token, Data: evm.Call("balanceOf(address)", evm.WordAddress(a))})
	if err != nil {
		t.Fatal(err)
	}
	return evm.WordBig(out).Uint64()
}

// FundGas gives an address one ether for gas (anvil_setBalance).
func (n *Node) FundGas(t testing.TB, a x402.Address) {
	t.Helper()
	if err := n.RPC.Call(context.Background(), "anvil_setBalance", nil, a.Hex(), "0xde0b6b3a7640000"); err != nil {
		t.Fatal(err)
	}
}

// Nonce is the number of mined transactions of an address.
func (n *Node) Nonce(t testing.TB, a x402.Address) uint64 {
	t.Helper()
	var q evm.Quantity
	if err := n.RPC.Call(context.Background(), "eth_getTransactionCount", &q, a.Hex(), "latest"); err != nil {
		t.Fatal(err)
	}
	return q.Uint64()
}

// Automine turns mining of each transaction as it arrives on or off.
func (n *Node) Automine(t testing.TB, on bool) {
	t.Helper()
	if err := n.RPC.Call(context.Background(), "evm_setAutomine", nil, on); err != nil {
		t.Fatal(err)
	}
}

// Mine mines one block.
func (n *Node) Mine(t testing.TB) {
	t.Helper()
	if err := n.RPC.Call(context.Background(), "evm_mine", nil); err != nil {
		t.Fatal(err)
	}
}

// Drop removes a pending transaction from the node's pool, as a node that
// restarted or evicted it would.
func (n *Node) Drop(t testing.TB, hash string) {
	t.Helper()
	if err := n.RPC.Call(context.Background(), "anvil_dropTransaction", nil, hash); err != nil {
		t.Fatal(err)
	}
}

// Stop kills the node, as an RPC endpoint that went away.
func (n *Node) Stop() {
	n.cmd.Process.Kill()
	n.cmd.Wait()
}

// balanceOfSlot is the storage slot of TestToken's balanceOf mapping
// (after name, version and totalSupply; constants take no slot).
const balanceOfSlot = 3

// SetBalance overwrites a's token balance in the node's state without a
// transaction (anvil_setStorageAt): what the chain holds when a pending
// transaction is mined can so differ from what was checked when it was
// sent, the way another spender would make it differ.
func (n *Node) SetBalance(t testing.TB, a x402.Address, micro uint64) {
	t.Helper()
	slot := x402.Keccak256(evm.WordAddress(a), evm.WordUint(balanceOfSlot))
	value := evm.WordUint(micro)
	err := n.RPC.Call(context.Background(), "anvil_setStorageAt", nil, n.Token.Hex(),
		"0x"+hex.EncodeToString(slot[:]), "0x"+hex.EncodeToString(value))
	if err != nil {
		t.Fatal(err)
	}
}
