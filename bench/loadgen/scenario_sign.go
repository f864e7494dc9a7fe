package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
)

// The sign scenarios: claimed bots with processor wallets funded
// with $1,000,000 of USDC and limits that never refuse, then
// POST /api/v1/processor-wallet/bot/sign of 1 micro-USDC each — every
// request runs the whole guardrail chain and reserves inside one
// transaction that locks the bot's wallet row, and is answered 200 with a
// signature. "sign" spreads the workers over -bots bots (each worker on its
// own share, as in the checkout scenario), as many bots signing at once do;
// "sign-one-bot" sends all workers through one bot, whose signatures queue
// on its wallet row.
// Both need a server started with a high BOTPAY_RATE_REGISTER_PER_HOUR.
func init() {
	scenarios["sign"] = signScenario(0)
	scenarios["sign-one-bot"] = signScenario(1)
}

// signScenario sets up bots signing bots (0: -bots, at least one per
// worker).
func signScenario(bots int) setupFunc {
	return func(ctx context.Context, c *http.Client, base string, cfg setupConfig) (newRequest, error) {
		if bots == 0 {
			bots = max(cfg.bots, cfg.workers)
		}
		runID := cfg.runID
		run := func(what, method, path, token string, in any, want int, out any) error {
			if err := callJSON(ctx, c, method, base+path, token, in, want, out); err != nil {
				return fmt.Errorf("set-up: %s: %w", what, err)
			}
			return nil
		}
		keys, err := inParallel(bots, func(i int) (string, error) {
			// One owner per bot: owners are limited in claims and pairing
			// codes per hour.
			name := runID + "-" + strconv.Itoa(i)
			email := "bench-signer-" + name + "@example.com"
			var owner struct {
				Token string `json:"token"`
			}
			if err := run("owner signup", http.MethodPost, "/api/v1/owner/signup", "",
				map[string]string{"email": email, "password": "bench-password-" + name}, http.StatusCreated, &owner); err != nil {
				return "", err
			}
			// A pairing code claims the bot at registration (claims by
			// token are limited per client IP).
			var code struct {
				PairingCode string `json:"pairing_code"`
			}
			if err := run("pairing code", http.MethodPost, "/api/v1/owner/pairing-codes", owner.Token, map[string]string{},
				http.StatusCreated, &code); err != nil {
				return "", err
			}
			var reg struct {
				BotID  string `json:"bot_id"`
				APIKey string `json:"api_key"`
			}
			if err := run("register bot", http.MethodPost, "/api/v1/bots/register", "", map[string]string{
				"bot_name": "bench-signer-" + name, "owner_email": email,
				"pairing_code": code.PairingCode}, http.StatusCreated, &reg); err != nil {
				return "", err
			}
			botPath := "/api/v1/owner/bots/" + reg.BotID
			for _, s := range []struct {
				what, method, path string
				in                 any
				want               int
			}{
				{"processor wallet", http.MethodPost, botPath + "/processor-wallet", map[string]any{}, http.StatusCreated},
				{"fund processor wallet", http.MethodPost, botPath + "/fund", map[string]any{"amount_usd": 1000000, "rail": "processor_wallet"}, http.StatusOK},
				{"guardrails", http.MethodPut, botPath + "/guardrails", map[string]any{"approval_mode": "auto_approve_under_threshold",
					"limits": map[string]any{"per_transaction_usd": 1000, "daily_usd": 10000000, "monthly_usd": 10000000, "ask_approval_above_usd": nil}}, http.StatusOK},
			} {
				if err := run(s.what, s.method, s.path, owner.Token, s.in, s.want, nil); err != nil {
					return "", err
				}
			}
			return "Bearer " + reg.APIKey, nil
		})
		if err != nil {
			return nil, err
		}
		next := rotation(len(keys), cfg.workers)
		target := base + "/api/v1/processor-wallet/bot/sign"
		body := []byte(`{"resource_url":"https://vendor.example/data","amount_usdc":1,"recipient_address":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C"}`)
		return func(ctx context.Context, worker int, _ int64) (*http.Request, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
			if err == nil {
				req.Header.Set("Authorization", keys[next(worker)])
				req.Header.Set("Content-Type", "application/json")
			}
			return req, err
		}, nil
	}
}
