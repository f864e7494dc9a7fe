package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"strconv"

	"github.com/botpay/botpay/internal/mcp"
)

// mcpServe runs `botpay mcp`: an MCP server over stdin and stdout for a
// desktop agent, calling the botpay service at BOTPAY_URL as the bot whose
// key is BOTPAY_API_KEY (an environment variable only, so the key never
// shows in a process list). Logs go to logOut (stderr): stdout carries the
// protocol.
func mcpServe(ctx context.Context, args []string, logOut io.Writer) error {
	fs := flag.NewFlagSet("botpay mcp", flag.ContinueOnError)
	baseURL := fs.String("url", os.Getenv("BOTPAY_URL"), "botpay service URL ($BOTPAY_URL)")
	network := fs.String("x402-network", os.Getenv("BOTPAY_X402_NETWORK"), "network the service signs x402 payments on: base or base-sepolia; asked of the service when empty ($BOTPAY_X402_NETWORK)")
	token := fs.String("x402-token", os.Getenv("BOTPAY_X402_TOKEN"), "0x address of the token the service signs for; USDC of the network when empty ($BOTPAY_X402_TOKEN)")
	allowPrivate := fs.Bool("allow-private", envBool("BOTPAY_MCP_ALLOW_PRIVATE"), "let pay_x402_resource fetch loopback and private addresses ($BOTPAY_MCP_ALLOW_PRIVATE)")
	level := fs.String("log-level", "warn", "debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	key := os.Getenv("BOTPAY_API_KEY")
	if *baseURL == "" || key == "" {
		return errors.New("botpay mcp needs BOTPAY_URL (or --url) and BOTPAY_API_KEY in the environment")
	}
	payment, err := mcp.PaymentOn(*network, *token)
	if err != nil {
		return err
	}
	log := newLogger(logOut, *level)
	bot := mcp.NetworkAPI(*baseURL, key, nil)
	if err := mcp.CheckKey(ctx, bot); err != nil {
		if errors.Is(err, mcp.ErrKeyRefused) {
			return err
		}
		log.Warn("botpay service not reachable at start; tools will report it until it answers", "url", *baseURL, "err", err)
	}
	deps := &mcp.Deps{API: bot, Outbound: mcp.NewOutbound(*allowPrivate), Payment: payment}
	return mcp.RunStdio(ctx, deps, mcp.Options{Version: version, Logger: log})
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func envBool(name string) bool {
	v, err := strconv.ParseBool(os.Getenv(name))
	return err == nil && v
}
