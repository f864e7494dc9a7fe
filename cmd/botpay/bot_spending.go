package main

import (
	"context"
	"flag"
	"fmt"
	"math/big"
	"strings"

	"github.com/botpay/botpay/client"
)

func buyVerb() botVerb {
	var req client.CheckoutRequest
	var amount, key, category, cardID, taskID string
	return botVerb{
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&req.MerchantName, "merchant", "", "merchant name (required)")
			fs.StringVar(&req.MerchantURL, "merchant-url", "", "merchant URL (required)")
			fs.StringVar(&req.ItemName, "item", "", "what is bought (required)")
			fs.StringVar(&amount, "amount", "", "price in dollars, e.g. 12.50 (required)")
			fs.StringVar(&category, "category", "", "purchase category")
			fs.IntVar(&req.ProfileIndex, "profile", 1, "payment profile of the card")
			fs.StringVar(&cardID, "card", "", "card id, when the bot has more than one")
			fs.StringVar(&taskID, "task", "", "the owner's task this purchase fulfils")
			idempotencyFlag(fs, &key)
		},
		run: func(ctx context.Context, s *botSession, args []string) error {
			if err := expectArgs(args, 0, "no argument"); err != nil {
				return err
			}
			cents, err := client.ParseUSD(amount)
			if err != nil {
				return usageError("--amount %q: %v", amount, err)
			}
			req.AmountCents = cents.Cents()
			req.Category, req.CardID, req.TaskID = optional(category), optional(cardID), optional(taskID)
			got, err := s.api.Checkout(ctx, req, idempotencyKey(key))
			if err != nil {
				return err
			}
			return printCheckout(s, got)
		},
	}
}

func printCheckout(s *botSession, c *client.Checkout) error {
	if s.json {
		printRaw(s.out, s.answer.last())
		return nil
	}
	pairs := []string{"status", c.Status, "approved", fmt.Sprint(c.Approved != nil && *c.Approved), "confirmation id", c.ConfirmationID,
		"amount", usd(c.AmountUSD), "merchant", c.MerchantName, "item", c.ItemName}
	if digits := orEmpty(c.MissingDigits); digits != "" {
		pairs = append(pairs, "missing digits", digits, "expiry", orEmpty(c.ExpiryMonth)+"/"+orEmpty(c.ExpiryYear))
	}
	if c.ExpiresAt != nil {
		pairs = append(pairs, "owner decides by", stamp(c.ExpiresAt.Time))
	}
	fields(s.out, append(pairs, "message", c.Message)...)
	return nil
}

func signVerb() botVerb {
	var req client.SignRequest
	var amount, key string
	var validBefore int64
	return botVerb{
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&req.RecipientAddress, "to", "", "0x address the payment goes to, the 402's payTo (required)")
			fs.StringVar(&amount, "amount", "", "USDC to authorize, e.g. 0.25 (required)")
			fs.StringVar(&req.ResourceURL, "resource", "", "URL of the resource paid for (required)")
			fs.Int64Var(&validBefore, "valid-before", 0, "Unix time the authorization expires (now + 5 minutes when 0)")
			idempotencyFlag(fs, &key)
		},
		run: func(ctx context.Context, s *botSession, args []string) error {
			if err := expectArgs(args, 0, "no argument"); err != nil {
				return err
			}
			micro, err := parseUSDC(amount)
			if err != nil {
				return usageError("--amount %q: %v", amount, err)
			}
			req.AmountUSDC = micro
			if validBefore != 0 {
				req.ValidBefore = &validBefore
			}
			signed, err := s.api.Sign(ctx, req, idempotencyKey(key))
			if err != nil {
				return err
			}
			return printSigned(s, signed)
		},
	}
}

func printSigned(s *botSession, signed *client.Signed) error {
	if s.json {
		printRaw(s.out, s.answer.last())
		return nil
	}
	if signed.AwaitingApproval() {
		fields(s.out, "status", signed.Status, "approval id", fmt.Sprint(signed.ApprovalID), "owner decides by",
			stamp(signed.ExpiresAt.Time), "message", signed.Message)
		return nil
	}
	fields(s.out, "status", orDash(signed.Status), "from", signed.From, "amount", formatUSDC(signed.AmountUSDC)+" USDC",
		"nonce", signed.Nonce, "valid before", fmt.Sprint(signed.ValidBefore), "X-PAYMENT", signed.XPaymentHeader)
	return nil
}

// parseUSDC reads a decimal amount of USDC exactly into micro-units.
func parseUSDC(s string) (client.MicroUSDC, error) {
	r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
	if !ok || s == "" || strings.ContainsAny(s, "eE/") {
		return 0, fmt.Errorf("not a decimal number of USDC")
	}
	r.Mul(r, big.NewRat(1_000_000, 1))
	if !r.IsInt() || r.Sign() <= 0 || !r.Num().IsInt64() {
		return 0, fmt.Errorf("want a positive amount with at most six decimals")
	}
	return client.MicroUSDC(r.Num().Int64()), nil
}

func formatUSDC(m client.MicroUSDC) string {
	return fmt.Sprintf("%d.%06d", m/1_000_000, m%1_000_000)
}
