// Package tunnelclient is the bot-side end of botpay's managed tunnel
// (docs/decisions.md), run by `botpay tunnel`. It keeps an outbound
// connection to the service — an HTTP long poll, standard library only, that
// passes through NAT, firewalls and ordinary HTTP proxies — takes each
// delivery the service hands it, posts it to the bot's local gateway with
// the headers the service signed (including Authorization: Bearer <hooks
// token>), and reports the gateway's answer. Lost connections are retried
// with exponential backoff and jitter. It knows nothing of the service's
// internals: it speaks only the tunnel's HTTP API.
package tunnelclient

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Config tunes Run.
type Config struct {
	Server string // service base URL
	Token  string // the tunnel token (bpt_…)
	To     string // local gateway base URL, e.g. http://127.0.0.1:18789
	Logger *slog.Logger
	// Poll carries the long polls; a client without overall time-out (the
	// service answers within 25 s) when nil.
	Poll *http.Client
	// Local posts to the gateway; 10 s time-out, no redirects when nil.
	Local      *http.Client
	MinBackoff time.Duration // 1 s when zero
	MaxBackoff time.Duration // 30 s when zero
}

// ErrUnauthorized means the service refused the token; retrying cannot help.
var ErrUnauthorized = errors.New("the service refused the tunnel token")

// request is one delivery as the service hands it out.
type request struct {
	RequestID int64               `json:"request_id"`
	Path      string              `json:"path"`
	Headers   map[string][]string `json:"headers"`
	Body      string              `json:"body"`
}

// Run keeps the tunnel open until ctx ends (then it returns nil) or the
// token is refused.
func Run(ctx context.Context, c Config) error {
	if err := c.check(); err != nil {
		return err
	}
	session := newSession()
	backoff := c.MinBackoff
	connected := false
	for ctx.Err() == nil {
		req, err := c.next(ctx, session)
		switch {
		case errors.Is(err, ErrUnauthorized):
			return err
		case err != nil:
			if ctx.Err() != nil {
				return nil
			}
			if connected {
				c.Logger.Warn("tunnel connection lost; reconnecting", "err", err, "in", backoff)
			} else {
				c.Logger.Warn("cannot reach the service; retrying", "err", err, "in", backoff)
			}
			connected = false
			if !sleep(ctx, jitter(backoff)) {
				return nil
			}
			backoff = min(backoff*2, c.MaxBackoff)
			continue
		}
		if !connected {
			c.Logger.Info("tunnel connected", "server", c.Server, "to", c.To)
			connected = true
		}
		backoff = c.MinBackoff
		if req != nil {
			c.relay(ctx, session, req)
		}
	}
	return nil
}

func (c *Config) check() error {
	for name, v := range map[string]string{"--server": c.Server, "--to": c.To} {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s must be an http or https URL, got %q", name, v)
		}
	}
	if !strings.HasPrefix(c.Token, "bpt_") {
		return errors.New("--token must be the tunnel token (bpt_…) from your registration")
	}
	c.Server, c.To = strings.TrimRight(c.Server, "/"), strings.TrimRight(c.To, "/")
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Poll == nil {
		c.Poll = &http.Client{Timeout: 90 * time.Second}
	}
	if c.Local == nil {
		c.Local = &http.Client{Timeout: 10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	if c.MinBackoff == 0 {
		c.MinBackoff = time.Second
	}
	if c.MaxBackoff == 0 {
		c.MaxBackoff = 30 * time.Second
	}
	return nil
}

// next long-polls for one delivery; nil, nil means none arrived in time.
func (c *Config) next(ctx context.Context, session string) (*request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Server+"/api/v1/tunnel/next", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("X-Tunnel-Session", session)
	resp, err := c.Poll.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusNoContent:
		return nil, nil
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, ErrUnauthorized
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("service answered HTTP %d: %s", resp.StatusCode, bytes.TrimSpace(data))
	}
	var r request
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("undecodable delivery: %w", err)
	}
	return &r, nil
}

// relay posts one delivery to the gateway and reports the outcome.
func (c *Config) relay(ctx context.Context, session string, r *request) {
	status, errText := c.deliver(ctx, r)
	c.Logger.Info("delivery relayed", "request_id", r.RequestID, "event", first(r.Headers["X-Service-Event"]), "status", status, "err", errText)
	result := map[string]any{"status_code": status}
	if errText != "" {
		result = map[string]any{"error": errText}
	}
	body, _ := json.Marshal(result)
	for try := 0; try < 3 && ctx.Err() == nil; try++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost,
			fmt.Sprintf("%s/api/v1/tunnel/requests/%d/result", c.Server, r.RequestID), bytes.NewReader(body))
		if err != nil {
			return
		}
		req.Header.Set("Authorization", "Bearer "+c.Token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Poll.Do(req)
		if err == nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return // recorded, or too late (the service stopped waiting)
			}
		}
		sleep(ctx, time.Duration(try+1)*200*time.Millisecond)
	}
}

func (c *Config) deliver(ctx context.Context, r *request) (int, string) {
	path := r.Path
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.To+path, strings.NewReader(r.Body))
	if err != nil {
		return 0, err.Error()
	}
	for k, vs := range r.Headers {
		req.Header[k] = vs
	}
	resp, err := c.Local.Do(req)
	if err != nil {
		return 0, "local gateway: " + err.Error()
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp.StatusCode, ""
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

func newSession() string {
	b := make([]byte, 12)
	rand.Read(b)
	return "ts_" + hex.EncodeToString(b)
}

// jitter spreads reconnects of many clients: d/2 to d.
func jitter(d time.Duration) time.Duration { return d/2 + mrand.N(d/2+1) }

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
