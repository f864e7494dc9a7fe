package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// maxAnswerBytes caps what is read of an answer of the bot API.
const maxAnswerBytes = 8 << 20

// API calls the bot API of one botpay service as one bot.
type API struct {
	baseURL   string
	key       string
	http      *http.Client
	requestID string // sent as X-Request-Id so logs of one tool call share it
}

// NetworkAPI calls the service at baseURL over the network (botpay mcp).
func NetworkAPI(baseURL, apiKey string, hc *http.Client) *API {
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return &API{baseURL: strings.TrimRight(baseURL, "/"), key: apiKey, http: hc}
}

// Request is one call of the bot API.
type Request struct {
	Method string
	Path   string // already escaped
	Query  url.Values
	Body   []byte // JSON; nil sends none
	// IdempotencyKey is sent as Idempotency-Key: a retried call with the
	// same key and body replays the first answer instead of acting twice.
	IdempotencyKey string
}

// Answer is the endpoint's answer, whatever its status.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// OK reports a 2xx answer.
func (a Answer) OK() bool { return a.Status >= 200 && a.Status <= 299 }

// Do sends r with the bot's key. An error means no answer was had (network,
// oversized answer); every HTTP status is an Answer.
func (a *API) Do(ctx context.Context, r Request) (Answer, error) {
	target := a.baseURL + r.Path
	if len(r.Query) > 0 {
		target += "?" + r.Query.Encode()
	}
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, target, body)
	if err != nil {
		return Answer{}, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
	}
	req.Header.Set("Authorization", "Bearer "+a.key)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "botpay-mcp")
	if r.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.IdempotencyKey != "" {
		req.Header.Set("Idempotency-Key", r.IdempotencyKey)
	}
	if a.requestID != "" {
		req.Header.Set("X-Request-Id", a.requestID)
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return Answer{}, fmt.Errorf("%s %s: %w", r.Method, r.Path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	if err != nil {
		return Answer{}, fmt.Errorf("%s %s: reading the answer: %w", r.Method, r.Path, err)
	}
	if len(data) > maxAnswerBytes {
		return Answer{}, fmt.Errorf("%s %s: the answer is larger than %d bytes", r.Method, r.Path, maxAnswerBytes)
	}
	return Answer{Status: resp.StatusCode, Header: resp.Header, Body: data}, nil
}

// ErrKeyRefused is CheckKey's answer to a key the service does not accept.
var ErrKeyRefused = errors.New("the botpay service refuses this API key (missing, wrong or revoked)")

// CheckKey asks the service whether the key is valid, so that `botpay mcp`
// with a bad key offers no tool at all. An error that is not ErrKeyRefused
// means the service could not say.
func CheckKey(ctx context.Context, a *API) error {
	ans, err := a.Do(ctx, Request{Method: "GET", Path: "/api/v1/bot/status"})
	switch {
	case err != nil:
		return err
	case ans.Status == http.StatusUnauthorized:
		return ErrKeyRefused
	case !ans.OK():
		return fmt.Errorf("GET /api/v1/bot/status answered HTTP %d", ans.Status)
	}
	return nil
}
