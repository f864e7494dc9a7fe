package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/botpay/botpay/client"
)

// payment is what `pay` needs to know: the limit and the network the
// service signs on.
type payment struct {
	max     string
	network string
	body    string
	key     string
}

// payVerb fetches an x402 resource; on its 402 (x402 v1) it has the
// service sign the cheapest exact payment on the service's network through
// the SDK and fetches again with X-PAYMENT.
func payVerb() botVerb {
	p := payment{}
	return botVerb{
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&p.max, "max", "1", "most USDC to pay; a dearer resource is refused before signing")
			fs.StringVar(&p.network, "network", envOr("BOTPAY_X402_NETWORK", "base"), "network the service signs on: base or base-sepolia ($BOTPAY_X402_NETWORK)")
			fs.StringVar(&p.body, "body", "", "JSON to POST (a GET when empty)")
			idempotencyFlag(fs, &p.key)
		},
		run: func(ctx context.Context, s *botSession, args []string) error {
			if err := expectArgs(args, 1, "the resource URL"); err != nil {
				return err
			}
			max, err := parseUSDC(p.max)
			if err != nil {
				return usageError("--max %q: %v", p.max, err)
			}
			return p.pay(ctx, s, args[0], max)
		},
	}
}

// fetched is one answer of the resource.
type fetched struct {
	status     int
	body       []byte
	settlement string
}

func (p payment) pay(ctx context.Context, s *botSession, url string, max client.MicroUSDC) error {
	first, err := p.fetch(ctx, url, "")
	if err != nil {
		return err
	}
	if first.status != http.StatusPaymentRequired {
		return printPaid(s, first, nil)
	}
	need, err := p.choose(first.body, max)
	if err != nil {
		return err
	}
	resource := need.Resource
	if resource == "" {
		resource = url
	}
	signed, err := s.api.Sign(ctx, client.SignRequest{ResourceURL: resource, AmountUSDC: need.amount, RecipientAddress: need.PayTo}, idempotencyKey(p.key))
	if err != nil {
		return err
	}
	if signed.AwaitingApproval() {
		return printSigned(s, signed)
	}
	paid, err := p.fetch(ctx, url, signed.XPaymentHeader)
	if err != nil {
		return err
	}
	return printPaid(s, paid, signed)
}

type offer struct {
	client.PaymentRequirement
	amount client.MicroUSDC
}

// choose takes the cheapest "exact" requirement on the network.
func (p payment) choose(body []byte, max client.MicroUSDC) (offer, error) {
	var asked client.PaymentRequired
	if err := json.Unmarshal(body, &asked); err != nil || len(asked.Accepts) == 0 {
		return offer{}, fmt.Errorf("the resource answered 402 without x402 v1 requirements: %.200s", body)
	}
	var best *offer
	var offered []string
	for _, a := range asked.Accepts {
		offered = append(offered, a.Scheme+" on "+a.Network)
		n, err := strconv.ParseInt(a.MaxAmountRequired, 10, 64)
		if a.Scheme != "exact" || a.Network != p.network || err != nil || n <= 0 {
			continue
		}
		if best == nil || client.MicroUSDC(n) < best.amount {
			best = &offer{PaymentRequirement: a, amount: client.MicroUSDC(n)}
		}
	}
	if best == nil {
		return offer{}, fmt.Errorf("the resource offers no exact payment on %s (it offers: %s); see --network", p.network, strings.Join(offered, ", "))
	}
	if best.amount > max {
		return offer{}, fmt.Errorf("the resource asks %s USDC, above --max %s", formatUSDC(best.amount), formatUSDC(max))
	}
	return *best, nil
}

func (p payment) fetch(ctx context.Context, url, header string) (fetched, error) {
	method, body := http.MethodGet, io.Reader(nil)
	if p.body != "" {
		method, body = http.MethodPost, strings.NewReader(p.body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return fetched{}, usageError("resource URL: %v", err)
	}
	if p.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if header != "" {
		req.Header.Set("X-PAYMENT", header)
	}
	resp, err := (&http.Client{Timeout: 2 * time.Minute}).Do(req)
	if err != nil {
		return fetched{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return fetched{}, err
	}
	return fetched{status: resp.StatusCode, body: data, settlement: resp.Header.Get("X-PAYMENT-RESPONSE")}, nil
}

// printPaid shows the resource's final answer; anything but a 2xx is an
// error of exit code 1.
func printPaid(s *botSession, f fetched, signed *client.Signed) error {
	if s.json {
		printRaw(s.out, f.body)
	} else {
		pairs := []string{"resource", fmt.Sprintf("HTTP %d", f.status)}
		if signed != nil {
			pairs = append(pairs, "paid", formatUSDC(signed.AmountUSDC)+" USDC from "+signed.From)
		}
		if raw, err := base64.StdEncoding.DecodeString(f.settlement); err == nil && f.settlement != "" {
			var settled client.SettleResponse
			if json.Unmarshal(raw, &settled) == nil {
				pairs = append(pairs, "transaction", orDash(settled.Transaction), "network", settled.Network)
			}
		}
		fields(s.out, pairs...)
		s.out.Write(bytes.TrimRight(f.body, "\n"))
		fmt.Fprintln(s.out)
	}
	if f.status < 200 || f.status > 299 {
		fmt.Fprintf(s.errOut, "error: the resource answered HTTP %d\n", f.status)
		return &exitError{code: exitAPI, err: fmt.Errorf("the resource answered HTTP %d", f.status), printed: true}
	}
	return nil
}
