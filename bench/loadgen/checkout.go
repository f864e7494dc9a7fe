package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
)

func init() { scenarios["checkout"] = setupCheckout }

// setupCheckout sets up cfg.bots bots (-bots), each with its own owner,
// funds each with $1,000,000, lets them buy automatically (no approval
// threshold, generous limits) and gives each a card; workers then POST
// $1.00 auto-approved checkouts. Worker w cycles through its own share of
// the bots (w, w+workers, w+2·workers, …), so no two workers use one bot
// at once and each bot's history grows as slowly as the bot count allows:
// many bots buying at once, as production would, rather than a few bots
// buying thousands of times an hour (the checkout rate limit allows 30).
// The server must run with high BOTPAY_RATE_REGISTER_PER_HOUR and
// BOTPAY_RATE_CHECKOUT_PER_HOUR (bench/checkout-vs-pgbench.sh does).
func setupCheckout(ctx context.Context, c *http.Client, base string, cfg setupConfig) (newRequest, error) {
	keys := make([]string, max(cfg.bots, cfg.workers))
	errs := make(chan error, len(keys))
	sem := make(chan struct{}, 4) // set-up in parallel, not all at once
	for i := range keys {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			key, err := buyingBot(ctx, c, base, cfg.runID+"-"+strconv.Itoa(i))
			keys[i] = "Bearer " + key
			errs <- err
		}()
	}
	for range keys {
		if err := <-errs; err != nil {
			return nil, err
		}
	}
	target := base + "/api/v1/bot/merchant/checkout"
	body := []byte(`{"profile_index":1,"merchant_name":"Bench Shop","merchant_url":"https://shop.example.com/item",` +
		`"item_name":"Widget","amount_cents":100,"category":"retail"}`)
	workers := max(cfg.workers, 1)
	turn := make([]int, workers) // each worker touches only its own entry
	return func(ctx context.Context, worker int, _ int64) (*http.Request, error) {
		k := (worker + turn[worker%workers]*workers) % len(keys)
		turn[worker%workers]++
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", keys[k])
		}
		return req, err
	}, nil
}

// buyingBot signs an owner up, pairs one bot with it (claims are limited per
// owner and per client IP; pairing needs only a high registration limit),
// funds the bot and adds a card.
func buyingBot(ctx context.Context, c *http.Client, base, name string) (string, error) {
	var owner struct {
		Token string `json:"token"`
	}
	if err := callJSON(ctx, c, http.MethodPost, base+"/api/v1/owner/signup", "",
		map[string]string{"email": "bench-buyer-owner-" + name + "@example.com", "password": "bench-password-" + name},
		http.StatusCreated, &owner); err != nil {
		return "", fmt.Errorf("set-up: owner signup: %w", err)
	}
	ownerToken := owner.Token
	var code struct {
		PairingCode string `json:"pairing_code"`
	}
	if err := callJSON(ctx, c, http.MethodPost, base+"/api/v1/owner/pairing-codes", ownerToken, map[string]string{},
		http.StatusCreated, &code); err != nil {
		return "", fmt.Errorf("set-up: pairing code: %w", err)
	}
	var reg struct {
		BotID  string `json:"bot_id"`
		APIKey string `json:"api_key"`
	}
	err := callJSON(ctx, c, http.MethodPost, base+"/api/v1/bots/register", "",
		map[string]string{"bot_name": "bench-buyer-" + name, "owner_email": "bench-buyer-" + name + "@example.com",
			"callback_url": "https://bot.example.com/hook", "pairing_code": code.PairingCode}, http.StatusCreated, &reg)
	if err != nil {
		return "", fmt.Errorf("set-up: register bot: %w", err)
	}
	bot := base + "/api/v1/owner/bots/" + reg.BotID
	calls := []struct {
		what, method, url string
		in                any
		want              int
	}{
		{"fund bot", http.MethodPost, bot + "/fund", map[string]any{"amount_usd": 1000000}, http.StatusOK},
		{"set guardrails", http.MethodPut, bot + "/guardrails", map[string]any{"approval_mode": "auto_approve_under_threshold",
			"limits": map[string]any{"per_transaction_usd": 100, "daily_usd": 100000000, "monthly_usd": 100000000, "ask_approval_above_usd": nil}}, http.StatusOK},
		{"add card", http.MethodPost, bot + "/cards", map[string]any{"card_name": "Bench card", "missing_digits": "4242",
			"expiry_month": "12", "expiry_year": "2031", "real_profile_index": 1,
			"profiles": []map[string]any{{"profile_index": 1, "allowance_duration": "month", "allowance_usd": 100000000}}}, http.StatusCreated},
	}
	for _, call := range calls {
		if err := callJSON(ctx, c, call.method, call.url, ownerToken, call.in, call.want, nil); err != nil {
			return "", fmt.Errorf("set-up: %s: %w", call.what, err)
		}
	}
	return reg.APIKey, nil
}
