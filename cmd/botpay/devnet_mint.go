package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/devnet"
	"github.com/botpay/botpay/internal/evm"
	"github.com/botpay/botpay/internal/x402"
)

// devnetMint runs `botpay devnet mint ADDRESS AMOUNT`: test USDC for any
// wallet on the running devnet, found through its state file.
func devnetMint(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f devnetFlags
	fs := flag.NewFlagSet("botpay devnet mint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f.register(fs)
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(positional) != 2 {
		return fmt.Errorf("usage: botpay devnet mint ADDRESS AMOUNT (AMOUNT in USDC, e.g. 5 or 0.25)")
	}
	to, err := x402.ParseAddress(positional[0])
	if err != nil {
		return fmt.Errorf("address %q: %v", positional[0], err)
	}
	micro, err := parseUSDC(positional[1])
	if err != nil {
		return fmt.Errorf("amount %q: %v", positional[1], err)
	}
	dir, err := filepath.Abs(f.dir)
	if err != nil {
		return err
	}
	state, err := loadDevnetState(dir)
	if err != nil || state.Token == "" {
		return fmt.Errorf("no devnet state in %s: start `botpay devnet` first (or pass its --dir)", dir)
	}
	token, err := x402.ParseAddress(state.Token)
	if err != nil {
		return err
	}
	rpc := evm.NewClient(state.RPCURL)
	if err := devnet.Mint(ctx, rpc, token, to, uint64(micro)); err != nil {
		return fmt.Errorf("mint on %s (is `botpay devnet` running?): %w", state.RPCURL, err)
	}
	balance, err := devnet.Balance(ctx, rpc, token, to)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "minted %s USDC to %s; balance %s USDC\n", formatUSDC(micro), to.Hex(), formatUSDC(client.MicroUSDC(balance)))
	return nil
}
