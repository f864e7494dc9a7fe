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
	keys, err := inParallel(max(cfg.bots, cfg.workers), func(i int) (string, error) {
		key, err := buyingBot(ctx, c, base, cfg.runID+"-"+strconv.Itoa(i), cfg.callbackURL)
		return "Bearer " + key, err
	})
	if err != nil {
		return nil, err
	}
	target := base + "/api/v1/bot/merchant/checkout"
	body := []byte(`{"profile_index":1,"merchant_name":"Bench Shop","merchant_url":"https://shop.example.com/item",` +
		`"item_name":"Widget","amount_cents":100,"category":"retail"}`)
	next := rotation(len(keys), cfg.workers)
	return func(ctx context.Context, worker int, _ int64) (*http.Request, error) {
		k := next(worker)
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
// funds the bot and adds a card. An empty callbackURL registers none.
func buyingBot(ctx context.Context, c *http.Client, base, name, callbackURL string) (string, error) {
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
	in := map[string]string{"bot_name": "bench-buyer-" + name, "owner_email": "bench-buyer-" + name + "@example.com",
		"pairing_code": code.PairingCode}
	if callbackURL != "" {
		in["callback_url"] = callbackURL
	}
	err := callJSON(ctx, c, http.MethodPost, base+"/api/v1/bots/register", "", in, http.StatusCreated, &reg)
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

// inParallel runs setUp for 0…n-1, four at a time, and collects the
// results in order; it stops at the first error.
func inParallel(n int, setUp func(i int) (string, error)) ([]string, error) {
	out := make([]string, n)
	errs := make(chan error, n)
	sem := make(chan struct{}, 4)
	for i := range out {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			var err error
			out[i], err = setUp(i)
			errs <- err
		}()
	}
	var first error
	for range out {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return out, first
}

// rotation gives worker w the bots w, w+workers, w+2·workers, … (mod n) in
// turn, so no two workers use one bot at once when n is a multiple of the
// worker count. Each worker touches only its own counter.
func rotation(n, workers int) func(worker int) int {
	workers = max(workers, 1)
	turn := make([]int, workers)
	return func(w int) int {
		k := (w + turn[w%workers]*workers) % n
		turn[w%workers]++
		return k
	}
}
