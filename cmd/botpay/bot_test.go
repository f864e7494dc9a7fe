package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// cliBot is a claimed bot with a funded card wallet, a card, a funded
// processor wallet and two ledger rows, and a seller whose x402 page it can
// pay.
type cliBot struct {
	url, key, sellerPage string
}

func setUpCLIBot(t *testing.T, d store.Dialect) cliBot {
	t.Helper()
	srv := testserver.Start(t, d, testserver.Options{Limits: app.Limits{RegisterPerHour: 100}})
	ctx := t.Context()
	reg, err := client.New(srv.URL, "").Register(ctx, client.RegisterRequest{BotName: "cli", OwnerEmail: "cli@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := client.NewOwner(srv.URL, "").Signup(ctx, "cli-owner@example.com", "correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	owner := client.NewOwner(srv.URL, sess.Token)
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(owner.Claim(ctx, *reg.ClaimToken))
	must(owner.Fund(ctx, reg.BotID, client.Dollars(60, 0), client.RailCardWallet))
	must(owner.Fund(ctx, reg.BotID, client.Dollars(40, 0), client.RailCardWallet))
	must(owner.CreateCard(ctx, reg.BotID, client.NewCard{CardName: "Main", MissingDigits: "4242", ExpiryMonth: "12", ExpiryYear: "2031",
		RealProfileIndex: 1, Profiles: []client.NewPaymentProfile{{ProfileIndex: 1, AllowanceDuration: client.AllowanceMonth, AllowanceUSD: client.Dollars(500, 0)}}}))
	must(owner.CreateProcessorWallet(ctx, reg.BotID))
	must(owner.Fund(ctx, reg.BotID, client.Dollars(20, 0), client.RailProcessorWallet))
	must(client.New(srv.URL, reg.APIKey).CreateCheckoutPage(ctx, client.CheckoutPageRequest{Title: "CLI guide", AmountUSD: ptr(client.Dollars(3, 0))}))

	seller, err := client.New(srv.URL, "").Register(ctx, client.RegisterRequest{BotName: "seller", OwnerEmail: "seller@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	must(owner.Claim(ctx, *seller.ClaimToken))
	page, err := client.New(srv.URL, seller.APIKey).CreateCheckoutPage(ctx, client.CheckoutPageRequest{Title: "Report", AmountUSD: ptr(client.USD(25))})
	if err != nil {
		t.Fatal(err)
	}
	return cliBot{url: srv.URL, key: reg.APIKey, sellerPage: srv.URL + "/api/v1/checkout/" + page.CheckoutPageID + "/x402"}
}

func ptr[T any](v T) *T { return &v }

// botCLI runs `botpay bot args…` as the bot and returns what it printed
// and the exit code main would use.
func (b cliBot) run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	full := append([]string{"bot"}, args...)
	if !strings.Contains(strings.Join(args, " "), "--url") {
		full = append(full, "--url", b.url, "--api-key", b.key)
	}
	err := run(context.Background(), full, &out, &errOut)
	return out.String(), errOut.String(), exitCode(err)
}

// Every verb against a real server on each engine: the table a person
// reads, the raw answer of --json, and the documented exit codes.
func TestBotCommandRunsEachVerbAgainstTheService(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		b := setUpCLIBot(t, d)
		tests := []struct {
			name     string
			args     []string
			code     int
			stdout   []string
			stderr   []string
			notInOut string
		}{
			{"status shows the claimed bot", []string{"status"}, exitOK, []string{"status:", "active", "card wallet:", "$100.00"}, nil, ""},
			{"wallet shows the balance", []string{"wallet"}, exitOK, []string{"wallet:", "active", "balance:", "$100.00"}, nil, ""},
			{"transactions page by page", []string{"transactions", "--limit", "1"}, exitOK,
				[]string{"ID", "TYPE", "AMOUNT", "fund", "$40.00", "more: botpay bot transactions --cursor "}, nil, "$60.00"},
			{"transactions --all follows every cursor", []string{"transactions", "--all", "--limit", "1"}, exitOK,
				[]string{"$40.00", "$60.00"}, nil, "more:"},
			{"pages lists the checkout pages", []string{"pages"}, exitOK, []string{"TITLE", "CLI guide", "$3.00"}, nil, ""},
			{"invoices says there are none", []string{"invoices"}, exitOK, []string{"no invoices"}, nil, ""},
			{"sales says there are none", []string{"sales", "--status", "completed"}, exitOK, []string{"no sales"}, nil, ""},
			{"messages lists the staged events", []string{"messages"}, exitOK, []string{"EVENT", "wallet.funded"}, nil, ""},
			{"buy is approved under the threshold", []string{"buy", "--merchant", "Acme", "--merchant-url", "https://shop.acme.com",
				"--item", "Widget", "--amount", "5.00", "--category", "retail"}, exitOK, []string{"approved:", "true", "$5.00", "missing digits:", "4242"}, nil, ""},
			{"sign authorizes a payment", []string{"sign", "--to", "0x1111111111111111111111111111111111111111", "--amount", "0.10",
				"--resource", "https://api.example/data"}, exitOK, []string{"X-PAYMENT:", "0.100000 USDC"}, nil, ""},
			{"pay settles the seller's 402", []string{"pay", b.sellerPage, "--max", "0.50"}, exitOK,
				[]string{"resource:", "HTTP 200", "paid:", "0.250000 USDC", "x402 version:", "transaction:"}, nil, ""},
			{"pay refuses a price above --max", []string{"pay", b.sellerPage, "--max", "0.10"}, exitAPI,
				nil, []string{"asks 0.250000 USDC, above --max 0.100000"}, ""},
			{"a refusal prints code, message and request id", []string{"buy", "--merchant", "Acme", "--merchant-url", "https://shop.acme.com",
				"--item", "Widget", "--amount", "0"}, exitAPI, nil, []string{"error: validation_error (HTTP 400)", "message: ", "request id: "}, ""},
			{"a refused key is an API error", []string{"status", "--url", b.url, "--api-key", "bp_live_wrong"}, exitAPI, nil, []string{"(HTTP 401)", "request id: "}, ""},
			{"an unknown verb is a usage error", []string{"frobnicate"}, exitUsage, nil, []string{"Usage: botpay bot VERB"}, ""},
			{"a missing amount is a usage error", []string{"buy", "--merchant", "Acme"}, exitUsage, nil, nil, ""},
			{"no service is a network error", []string{"wallet", "--url", "http://127.0.0.1:1", "--api-key", b.key}, exitNetwork,
				nil, []string{"could not be reached"}, ""},
		}
		for _, tt := range tests {
			stdout, stderr, code := b.run(t, tt.args...)
			if code != tt.code || !containsAll(stdout, tt.stdout) || !containsAll(stderr, tt.stderr) || (tt.notInOut != "" && strings.Contains(stdout, tt.notInOut)) {
				t.Errorf("%s: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", tt.name, code, tt.code, stdout, stderr)
			}
		}
	})
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// --json prints the service's answers as they came: one page as is, every
// page's items merged under --all; an acknowledged message leaves the list.
func TestBotCommandJSONPrintsTheRawAnswers(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		b := setUpCLIBot(t, d)
		var wallet map[string]any
		if out, _, code := b.run(t, "wallet", "--json"); code != exitOK || json.Unmarshal([]byte(out), &wallet) != nil ||
			wallet["wallet_status"] != "active" || wallet["balance_usd"] != 100.0 {
			t.Fatalf("wallet --json = %d %s", code, out)
		}
		var all struct {
			Transactions []map[string]any `json:"transactions"`
			HasMore      bool             `json:"has_more"`
		}
		if out, _, code := b.run(t, "transactions", "--json", "--all", "--limit", "1"); code != exitOK ||
			json.Unmarshal([]byte(out), &all) != nil || len(all.Transactions) != 2 || all.HasMore {
			t.Fatalf("transactions --json --all = %d %s", code, out)
		}
		var messages struct {
			Messages []struct {
				MessageID json.Number `json:"message_id"`
			} `json:"messages"`
		}
		out, _, code := b.run(t, "messages", "--json")
		if code != exitOK || json.Unmarshal([]byte(out), &messages) != nil || len(messages.Messages) == 0 {
			t.Fatalf("messages --json = %d %s", code, out)
		}
		first := messages.Messages[0].MessageID.String()
		if out, _, code := b.run(t, "messages", "ack", first, "999999"); code != exitOK ||
			!containsAll(out, []string{"acknowledged: " + first, "not found:    999999"}) {
			t.Fatalf("messages ack = %d %s", code, out)
		}
		if out, _, _ := b.run(t, "messages", "--json"); strings.Contains(out, `"message_id":`+first+`,`) {
			t.Fatalf("message %s still listed after ack: %s", first, out)
		}
		if out, stderr, code := b.run(t, "buy", "--json", "--merchant", "Acme", "--merchant-url", "https://shop.acme.com", "--item", "W", "--amount", "0"); code != exitAPI ||
			!strings.Contains(out, `"error":"validation_error"`) || !strings.Contains(stderr, "request id: ") {
			t.Fatalf("refused buy --json = %d %s %s", code, out, stderr)
		}
	})
}
