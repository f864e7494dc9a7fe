package main

import (
	"context"
	"flag"
	"io"
	"os"

	"github.com/botpay/botpay/internal/tunnelclient"
)

// tunnel runs the bot-side client of the managed tunnel until interrupted.
func tunnel(ctx context.Context, args []string, logOut io.Writer) error {
	fs := flag.NewFlagSet("botpay tunnel", flag.ContinueOnError)
	server := fs.String("server", os.Getenv("BOTPAY_SERVER"), "botpay service URL ($BOTPAY_SERVER)")
	token := fs.String("token", os.Getenv("BOTPAY_TUNNEL_TOKEN"), "tunnel token from the registration ($BOTPAY_TUNNEL_TOKEN)")
	to := fs.String("to", "http://127.0.0.1:18789", "local gateway base URL; deliveries go to <to><webhook_path>")
	level := fs.String("log-level", "info", "debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return tunnelclient.Run(ctx, tunnelclient.Config{Server: *server, Token: *token, To: *to, Logger: newLogger(logOut, *level)})
}
