package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// historyLength is how many rows a history writes: more than one page of
// the lists the scenarios read (limit=50), so every request reads a full
// page, on an empty database as on a full one.
const historyLength = 60

// history writes rows of a bot's past through the API before a scenario
// reads them.
type history func(ctx context.Context, c *http.Client, base string, bot benchBot) error

// withFundings gives the bot historyLength ledger rows: owner fundings.
func withFundings(ctx context.Context, c *http.Client, base string, bot benchBot) error {
	return fundings(historyLength)(ctx, c, base, bot)
}

// fundings gives the bot n ledger rows: owner fundings of $1.
func fundings(n int) history {
	return func(ctx context.Context, c *http.Client, base string, bot benchBot) error {
		for i := range n {
			err := callJSON(ctx, c, http.MethodPost, base+"/api/v1/owner/bots/"+bot.id+"/fund", bot.ownerToken,
				map[string]any{"amount_usd": 1}, http.StatusOK, nil)
			if err != nil {
				return fmt.Errorf("set-up: funding %d: %w", i+1, err)
			}
		}
		return nil
	}
}

// withSales gives the bot historyLength sales: one checkout page, paid
// through the sandbox endpoint.
func withSales(ctx context.Context, c *http.Client, base string, bot benchBot) error {
	var page struct {
		ID string `json:"checkout_page_id"`
	}
	err := callJSON(ctx, c, http.MethodPost, base+"/api/v1/bot/checkout-pages/create", bot.apiKey,
		map[string]any{"title": "Bench product", "amount_usd": 5}, http.StatusCreated, &page)
	if err != nil {
		return fmt.Errorf("set-up: checkout page: %w", err)
	}
	for i := range historyLength {
		err := callJSON(ctx, c, http.MethodPost, base+"/api/v1/checkout/"+page.ID+"/pay/sandbox", "",
			map[string]any{"buyer_email": fmt.Sprintf("buyer%d@example.com", i)}, http.StatusOK, nil)
		if err != nil {
			return fmt.Errorf("set-up: sale %d: %w", i+1, err)
		}
	}
	return nil
}

// nextPageGET sets up what firstPage does, reads that first page once
// for its next_cursor, and then issues GETs of the second page.
func nextPageGET(firstPage setupFunc) setupFunc {
	return func(ctx context.Context, c *http.Client, base string, cfg setupConfig) (newRequest, error) {
		first, err := firstPage(ctx, c, base, cfg)
		if err != nil {
			return nil, err
		}
		req, err := first(ctx, 0, 0)
		if err != nil {
			return nil, err
		}
		cursor, err := nextCursor(c, req)
		if err != nil {
			return nil, fmt.Errorf("set-up: first page: %w", err)
		}
		return authorizedGET(req.URL.String()+"&cursor="+url.QueryEscape(cursor), req.Header.Get("Authorization")), nil
	}
}

// nextCursor sends req and answers the next_cursor of the page it reads.
func nextCursor(c *http.Client, req *http.Request) (string, error) {
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var page struct {
		NextCursor *string `json:"next_cursor"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		return "", fmt.Errorf("HTTP %d: %w", resp.StatusCode, err)
	}
	if page.NextCursor == nil {
		return "", fmt.Errorf("HTTP %d: the page has no next_cursor", resp.StatusCode)
	}
	return *page.NextCursor, nil
}
