// Command botpay runs the botpay service and its tools:
//
//	botpay serve     HTTP server and background workers
//	botpay migrate   apply database migrations and exit
//	botpay owner create --email E --password P   create an owner, print a token
//	botpay tunnel --server S --token T --to U     managed-tunnel client
//	botpay mcp       MCP server over stdio (BOTPAY_URL, BOTPAY_API_KEY)
//	botpay bot VERB  the bot API from the command line (BOTPAY_URL, BOTPAY_API_KEY)
//	botpay devnet    a local chain for live mode (and devnet mint ADDRESS AMOUNT)
//	botpay version   print the module version and the commit built from
//
// main wires configuration to the store, the use cases and the HTTP server;
// it holds no business logic.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		var exit *exitError
		if !errors.Is(err, flag.ErrHelp) && (!errors.As(err, &exit) || !exit.printed) {
			fmt.Fprintln(os.Stderr, "botpay:", err)
		}
		os.Exit(exitCode(err))
	}
}

const usage = `botpay: payments for autonomous software agents

Usage:
  botpay serve [flags]      run the service (botpay serve --help lists settings)
  botpay migrate [flags]    apply database migrations and exit
  botpay owner create --email EMAIL --password PASSWORD
                            create an owner account and print its token
  botpay backup --out FILE  copy the embedded SQLite database while it runs
                            (PostgreSQL: use pg_dump)
  botpay restore --from FILE
                            put a backup in place as the data folder's database
  botpay tunnel --server URL --token TUNNEL_TOKEN --to http://127.0.0.1:PORT
                            relay webhook deliveries to a local gateway
  botpay mcp                MCP server over stdio for a desktop agent
                            (BOTPAY_URL and BOTPAY_API_KEY in the environment)
  botpay bot VERB [flags]   the bot API from the command line: status, wallet,
                            transactions, buy, sign, pay, pages, invoices, sales,
                            messages (botpay bot help)
  botpay devnet [--dir DIR] a local chain for live mode: anvil, the test token, a
                            funded relayer; prints the settings for botpay serve
  botpay devnet mint ADDRESS AMOUNT
                            give test USDC to a wallet on the running devnet
  botpay version            print the module version and the commit built from
`

// exitCode is 0 for success, the code an *exitError carries (the
// documented codes of `botpay bot`), else 1.
func exitCode(err error) int {
	var exit *exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.code
	default:
		return 1
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], stderr)
	case "migrate":
		return migrate(ctx, args[1:], stdout)
	case "owner":
		return owner(ctx, args[1:], stdout)
	case "backup":
		return backup(ctx, args[1:], stdout)
	case "restore":
		return restore(ctx, args[1:], stdout)
	case "tunnel":
		return tunnel(ctx, args[1:], stderr)
	case "mcp":
		return mcpServe(ctx, args[1:], stderr)
	case "bot":
		return bot(ctx, args[1:], stdout, stderr)
	case "devnet":
		return devnetCommand(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-v":
		return printVersion(stdout)
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", args[0])
	}
}
