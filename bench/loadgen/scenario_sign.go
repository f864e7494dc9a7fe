package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
)

// The sign scenarios (issue 6): claimed bots with processor wallets funded
// with $1,000,000 of USDC and limits that never refuse, then
// POST /api/v1/processor-wallet/bot/sign of 1 micro-USDC each — every
// request runs the whole guardrail chain and reserves inside one
// transaction that locks the bot's wallet row, and is answered 200 with a
// signature. "sign" spreads the workers over 8 bots (worker i uses bot
// i mod 8), as many bots signing at once do; "sign-one-bot" sends all
// workers through one bot, whose signatures queue on its wallet row.
// Both need a server started with a high BOTPAY_RATE_REGISTER_PER_HOUR.
func init() {
	scenarios["sign"] = signScenario(8)
	scenarios["sign-one-bot"] = signScenario(1)
}

func signScenario(bots int) setupFunc {
	return func(ctx context.Context, c *http.Client, base string, cfg setupConfig) (newRequest, error) {
		runID := cfg.runID
		run := func(what, method, path, token string, in any, want int, out any) error {
			if err := callJSON(ctx, c, method, base+path, token, in, want, out); err != nil {
				return fmt.Errorf("set-up: %s: %w", what, err)
			}
			return nil
		}
		email := "bench-signer-" + runID + "@example.com"
		var owner struct {
			Token string `json:"token"`
		}
		if err := run("owner signup", http.MethodPost, "/api/v1/owner/signup", "",
			map[string]string{"email": email, "password": "bench-password-" + runID}, http.StatusCreated, &owner); err != nil {
			return nil, err
		}
		keys := make([]string, bots)
		for i := range keys {
			var reg struct {
				BotID      string `json:"bot_id"`
				APIKey     string `json:"api_key"`
				ClaimToken string `json:"claim_token"`
			}
			if err := run("register bot", http.MethodPost, "/api/v1/bots/register", "", map[string]string{
				"bot_name": "bench-signer-" + runID + "-" + strconv.Itoa(i), "owner_email": email}, http.StatusCreated, &reg); err != nil {
				return nil, err
			}
			botPath := "/api/v1/owner/bots/" + reg.BotID
			for _, s := range []struct {
				what, method, path string
				in                 any
				want               int
			}{
				{"claim", http.MethodPost, "/api/v1/owner/bots/claim", map[string]string{"claim_token": reg.ClaimToken}, http.StatusOK},
				{"processor wallet", http.MethodPost, botPath + "/processor-wallet", map[string]any{}, http.StatusCreated},
				{"fund processor wallet", http.MethodPost, botPath + "/fund", map[string]any{"amount_usd": 1000000, "rail": "processor_wallet"}, http.StatusOK},
				{"guardrails", http.MethodPut, botPath + "/guardrails", map[string]any{"approval_mode": "auto_approve_under_threshold",
					"limits": map[string]any{"per_transaction_usd": 1000, "daily_usd": 10000000, "monthly_usd": 10000000, "ask_approval_above_usd": nil}}, http.StatusOK},
			} {
				if err := run(s.what, s.method, s.path, owner.Token, s.in, s.want, nil); err != nil {
					return nil, err
				}
			}
			keys[i] = "Bearer " + reg.APIKey
		}
		target := base + "/api/v1/processor-wallet/bot/sign"
		body := []byte(`{"resource_url":"https://vendor.example/data","amount_usdc":1,"recipient_address":"0x209693Bc6afc0C5328bA36FaF03C514EF312287C"}`)
		return func(ctx context.Context, worker int, _ int64) (*http.Request, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
			if err == nil {
				req.Header.Set("Authorization", keys[worker%len(keys)])
				req.Header.Set("Content-Type", "application/json")
			}
			return req, err
		}, nil
	}
}
