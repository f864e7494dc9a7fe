package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"strconv"

	"github.com/botpay/botpay/client"
)

// payment is what `pay` needs to know: the limit, an optional body and
// the idempotency key of the signing request.
type payment struct {
	max  string
	body string
	key  string
}

// payVerb fetches an x402 resource; on its 402 (x402 v2 or v1) the SDK
// has the service sign the resource's offer on the network the service
// signs for and fetches again with PAYMENT-SIGNATURE or X-PAYMENT.
func payVerb() botVerb {
	p := payment{}
	return botVerb{
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&p.max, "max", "1", "most USDC to pay; a dearer resource is refused before signing")
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

func (p payment) pay(ctx context.Context, s *botSession, url string, max client.MicroUSDC) error {
	var body []byte
	if p.body != "" {
		body = []byte(p.body)
	}
	paid, err := s.api.PayX402(ctx, url, body, max, idempotencyKey(p.key))
	switch {
	case errors.Is(err, client.ErrAwaitingApproval):
		return printSigned(s, paid.Signed)
	case errors.Is(err, client.ErrOverLimit):
		return fmt.Errorf("the resource asks %s USDC, above --max %s", formatUSDC(askedAmount(paid)), formatUSDC(max))
	case errors.Is(err, client.ErrNoExactBase):
		return errors.New("the resource offers no exact payment on the network the service signs for")
	case err != nil:
		return err
	}
	return printPaid(s, paid)
}

// askedAmount is what the resource's chosen offer asked, in micro-USDC.
func askedAmount(paid *client.PaidResponse) client.MicroUSDC {
	if paid == nil || paid.Requirement == nil {
		return 0
	}
	n, _ := strconv.ParseInt(paid.Requirement.MaxAmountRequired, 10, 64)
	return client.MicroUSDC(n)
}

// printPaid shows the resource's final answer; anything but a 2xx is an
// error of exit code 1.
func printPaid(s *botSession, paid *client.PaidResponse) error {
	if s.json {
		printRaw(s.out, paid.Body)
	} else {
		pairs := []string{"resource", fmt.Sprintf("HTTP %d", paid.StatusCode)}
		if paid.Signed != nil {
			pairs = append(pairs, "paid", formatUSDC(paid.Signed.AmountUSDC)+" USDC from "+paid.Signed.From,
				"x402 version", strconv.Itoa(paid.Version))
		}
		if st := paid.Settlement; st != nil {
			pairs = append(pairs, "transaction", orDash(st.Transaction), "network", st.Network)
		}
		fields(s.out, pairs...)
		s.out.Write(bytes.TrimRight(paid.Body, "\n"))
		fmt.Fprintln(s.out)
	}
	if paid.StatusCode < http.StatusOK || paid.StatusCode > 299 {
		fmt.Fprintf(s.errOut, "error: the resource answered HTTP %d\n", paid.StatusCode)
		return &exitError{code: exitAPI, err: fmt.Errorf("the resource answered HTTP %d", paid.StatusCode), printed: true}
	}
	return nil
}
