package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// newRequest builds the next request of a scenario. worker and seq make
// every request distinguishable (register needs unique bot names).
type newRequest func(ctx context.Context, worker int, seq int64) (*http.Request, error)

// setupFunc prepares the server state a scenario needs, through the API,
// and returns the scenario's request builder.
type setupFunc func(ctx context.Context, c *http.Client, base string, cfg setupConfig) (newRequest, error)

// setupConfig is what a set-up may use besides the client and base URL.
type setupConfig struct {
	runID  string // random tag that keeps names unique across runs
	apiKey string // an existing bot's key; empty: set one up
	// bots and workers: how many bots a multi-bot scenario sets up, and
	// how many workers will share them.
	bots, workers int
	// callbackURL is the checkout bots' callback URL; empty: none, so
	// their events are staged as pending messages when written.
	callbackURL string
}

var scenarios = map[string]setupFunc{
	"wallet-check": botGET("/api/v1/bot/wallet/check"),
	"status":       botGET("/api/v1/bot/status"),
	"transactions": botGET("/api/v1/bot/wallet/transactions?limit=50", withFundings),
	// The second page (of a bot with 121 ledger rows, so it is full),
	// through the cursor the first page answered.
	"transactions-next": nextPageGET(botGET("/api/v1/bot/wallet/transactions?limit=50", fundings(2*historyLength))),
	"sales":             botGET("/api/v1/bot/sales?limit=50", withSales),
	// The owner's dashboard pages: the overview of every bot, then one
	// bot's overview, spending and earning sections.
	"dashboard-home":     dashboardPage("/dashboard"),
	"dashboard":          dashboardPage("/dashboard/bots/{bot}"),
	"dashboard-spending": dashboardPage("/dashboard/bots/{bot}/spending"),
	"dashboard-earning":  dashboardPage("/dashboard/bots/{bot}/earning"),
	"register":           setupRegister,
}

// dashboardPage sets up a funded bot with fundings and sales behind it,
// and then loads one of its owner's dashboard pages (path, where {bot} is
// the bot's id) with the session cookie, as a browser does.
func dashboardPage(path string) setupFunc {
	return func(ctx context.Context, c *http.Client, base string, cfg setupConfig) (newRequest, error) {
		bot, err := fundedBotOfOwner(ctx, c, base, cfg.runID)
		if err != nil {
			return nil, err
		}
		for _, write := range []history{withFundings, withSales} {
			if err := write(ctx, c, base, bot); err != nil {
				return nil, err
			}
		}
		target := base + strings.ReplaceAll(path, "{bot}", bot.id)
		return func(ctx context.Context, _ int, _ int64) (*http.Request, error) {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
			if err == nil {
				req.AddCookie(&http.Cookie{Name: "botpay_session", Value: bot.ownerToken})
			}
			return req, err
		}, nil
	}
}

// botGET sets up one claimed, funded bot, gives it the history each of
// histories writes, and then issues authenticated GETs of path with its
// API key. A bot given by key (cfg.apiKey) is used as it is.
func botGET(path string, histories ...history) setupFunc {
	return func(ctx context.Context, c *http.Client, base string, cfg setupConfig) (newRequest, error) {
		apiKey := cfg.apiKey
		if apiKey == "" {
			bot, err := fundedBotOfOwner(ctx, c, base, cfg.runID)
			if err != nil {
				return nil, err
			}
			for _, write := range histories {
				if err := write(ctx, c, base, bot); err != nil {
					return nil, err
				}
			}
			apiKey = bot.apiKey
		}
		return authorizedGET(base+path, "Bearer "+apiKey), nil
	}
}

// authorizedGET builds GETs of target with the Authorization header auth.
func authorizedGET(target, auth string) newRequest {
	return func(ctx context.Context, _ int, _ int64) (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err == nil {
			req.Header.Set("Authorization", auth)
		}
		return req, err
	}
}

// setupRegister needs no server state: every request registers a new bot
// under one owner e-mail, with a name unique to the run, worker and sequence.
func setupRegister(_ context.Context, _ *http.Client, base string, cfg setupConfig) (newRequest, error) {
	runID := cfg.runID
	target := base + "/api/v1/bots/register"
	email := "bench-" + runID + "@example.com"
	return func(ctx context.Context, worker int, seq int64) (*http.Request, error) {
		name := "bench-" + runID + "-" + strconv.Itoa(worker) + "-" + strconv.FormatInt(seq, 10)
		body, err := json.Marshal(map[string]string{"bot_name": name, "owner_email": email})
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
		}
		return req, err
	}, nil
}

// benchBot is a claimed, funded bot with its owner's token.
type benchBot struct{ id, apiKey, ownerToken string }

func fundedBotOfOwner(ctx context.Context, c *http.Client, base, runID string) (benchBot, error) {
	email := "bench-owner-" + runID + "@example.com"
	var owner struct {
		Token string `json:"token"`
	}
	err := callJSON(ctx, c, http.MethodPost, base+"/api/v1/owner/signup", "",
		map[string]string{"email": email, "password": "bench-password-" + runID}, http.StatusCreated, &owner)
	if err != nil {
		return benchBot{}, fmt.Errorf("set-up: owner signup: %w", err)
	}
	// A pairing code claims the bot at registration: claims are limited
	// per client IP, which every run on a kept database shares.
	var code struct {
		PairingCode string `json:"pairing_code"`
	}
	err = callJSON(ctx, c, http.MethodPost, base+"/api/v1/owner/pairing-codes", owner.Token, map[string]string{}, http.StatusCreated, &code)
	if err != nil {
		return benchBot{}, fmt.Errorf("set-up: pairing code: %w", err)
	}
	var reg struct {
		BotID  string `json:"bot_id"`
		APIKey string `json:"api_key"`
	}
	err = callJSON(ctx, c, http.MethodPost, base+"/api/v1/bots/register", "",
		map[string]string{"bot_name": "bench-wallet-" + runID, "owner_email": email, "pairing_code": code.PairingCode},
		http.StatusCreated, &reg)
	if err != nil {
		return benchBot{}, fmt.Errorf("set-up: register bot: %w", err)
	}
	err = callJSON(ctx, c, http.MethodPost, base+"/api/v1/owner/bots/"+reg.BotID+"/fund", owner.Token,
		map[string]any{"amount_usd": 1000}, http.StatusOK, nil)
	if err != nil {
		return benchBot{}, fmt.Errorf("set-up: fund bot: %w", err)
	}
	return benchBot{id: reg.BotID, apiKey: reg.APIKey, ownerToken: owner.Token}, nil
}

// callJSON sends one JSON request and decodes the answer into out (when
// not nil); any status other than want is an error quoting the body.
func callJSON(ctx context.Context, c *http.Client, method, url, bearer string, in any, want int, out any) error {
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: HTTP %d: %s", method, url, resp.StatusCode, bytes.TrimSpace(raw))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// newRunID is a short random tag that keeps names unique across runs.
func newRunID() string {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
