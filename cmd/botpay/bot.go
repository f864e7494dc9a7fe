package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/botpay/botpay/client"
)

// Exit codes of `botpay bot`, documented in docs/cli.md, so a script can
// tell a refusal of the service from a typing mistake or a network fault.
const (
	exitOK      = 0
	exitAPI     = 1 // the service answered with an error (or an answer the CLI cannot read)
	exitUsage   = 2 // unknown verb, bad flag or argument, missing BOTPAY_URL or BOTPAY_API_KEY
	exitNetwork = 3 // the service could not be reached
)

// exitError carries the process exit code up to main; its message is
// already printed when printed is set.
type exitError struct {
	code    int
	err     error
	printed bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageError(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...)}
}

const botUsage = `botpay bot: the bot API from the command line

Usage: botpay bot VERB [flags]   (flags may follow arguments)

  status                      the bot's status, rails and guardrails
  wallet                      the card wallet's balance and limits
  transactions [--all]        the ledger, newest first
  buy --merchant NAME --merchant-url URL --item NAME --amount USD
                              a card checkout (approved, or held for the owner)
  sign --to ADDRESS --amount USDC --resource URL
                              an x402 authorization from the processor wallet
  pay URL [--max USDC]        fetch an x402 resource, paying its 402
  pages [--all]               the bot's checkout pages
  invoices [--all]            the bot's invoices
  sales [--all]               the bot's sales
  messages [--all]            pending messages, oldest first
  messages ack ID...          acknowledge pending messages

Every verb takes --url ($BOTPAY_URL), --api-key ($BOTPAY_API_KEY) and --json
(print the service's answer as it came). Exit codes: 0 ok, 1 the service
refused (code, message and request id on stderr), 2 usage, 3 network.
`

// botSession is what every verb needs: the SDK client, where to print, and
// the answers as they came over the wire for --json.
type botSession struct {
	api    *client.Client
	out    io.Writer
	errOut io.Writer
	json   bool
	answer *rawAnswers
}

// botVerb runs one verb with its flag set already parsed.
type botVerb struct {
	flags func(fs *flag.FlagSet)
	run   func(ctx context.Context, s *botSession, args []string) error
}

func botVerbs() map[string]func() botVerb {
	return map[string]func() botVerb{
		"status": statusVerb, "wallet": walletVerb, "transactions": transactionsVerb,
		"buy": buyVerb, "sign": signVerb, "pay": payVerb,
		"pages": pagesVerb, "invoices": invoicesVerb, "sales": salesVerb, "messages": messagesVerb,
	}
}

// bot runs `botpay bot VERB`; every failure comes back as an *exitError.
func bot(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprint(stdout, botUsage)
		if len(args) == 0 {
			return usageError("botpay bot needs a verb")
		}
		return nil
	}
	makeVerb, ok := botVerbs()[args[0]]
	if !ok {
		fmt.Fprint(stderr, botUsage)
		return usageError("unknown verb %q of botpay bot", args[0])
	}
	verb := makeVerb()
	fs := flag.NewFlagSet("botpay bot "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	baseURL := fs.String("url", os.Getenv("BOTPAY_URL"), "botpay service URL ($BOTPAY_URL)")
	key := fs.String("api-key", os.Getenv("BOTPAY_API_KEY"), "the bot's API key ($BOTPAY_API_KEY; the flag shows in process lists)")
	asJSON := fs.Bool("json", false, "print the service's answer as it came")
	if verb.flags != nil {
		verb.flags(fs)
	}
	positional, err := parseInterleaved(fs, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError("%v", err)
	}
	if *baseURL == "" || *key == "" {
		return usageError("botpay bot needs BOTPAY_URL (or --url) and BOTPAY_API_KEY (or --api-key)")
	}
	answers := &rawAnswers{}
	s := &botSession{out: stdout, errOut: stderr, json: *asJSON, answer: answers,
		api: client.New(*baseURL, *key, client.WithHTTPClient(answers.httpClient()), client.WithUserAgent("botpay-cli/"+version))}
	return classify(verb.run(ctx, s, positional), s, stderr)
}

// parseInterleaved parses flags wherever they stand among the arguments
// (`pay URL --max 1` as well as `pay --max 1 URL`) and returns the rest.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// idempotencyKey names one logical POST, so the SDK's retry of it after a
// lost answer cannot buy or sign twice.
func idempotencyKey(given string) client.CallOption {
	if given == "" {
		b := make([]byte, 16)
		rand.Read(b)
		given = "cli-" + hex.EncodeToString(b)
	}
	return client.WithIdempotencyKey(given)
}

func idempotencyFlag(fs *flag.FlagSet, into *string) {
	fs.StringVar(into, "idempotency-key", "", "Idempotency-Key of this POST (a fresh random one when empty); repeat it to retry safely")
}

func expectArgs(args []string, want int, what string) error {
	if len(args) != want {
		return usageError("want %s, got %d argument(s): %s", what, len(args), strings.Join(args, " "))
	}
	return nil
}
