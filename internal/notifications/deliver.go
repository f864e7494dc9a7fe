package notifications

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

	"github.com/botpay/botpay/internal/botpay"
)

// Outcomes recorded on finished outbox rows.
const (
	OutcomeDelivered = "delivered" // a 2xx answer
	OutcomeStaged    = "staged"    // not attempted (health unreachable/none); kept as a pending message
	OutcomeFailed    = "failed"    // attempts and retries used up; kept as a pending message
	OutcomeNoBot     = "no_bot"    // the bot no longer exists
)

// Relay hands a delivery to a managed-tunnel client and reports the local
// gateway's answer.
type Relay interface {
	Relay(ctx context.Context, botID string, req RelayRequest) (status int, err error)
}

// RelayRequest is one delivery through a tunnel.
type RelayRequest struct {
	Path    string
	Headers http.Header
	Body    []byte
}

// handle makes one decision for a claimed row by the central-dispatch rule
// (docs/decisions.md) and, when allowed, one attempt.
func (d *Dispatcher) handle(ctx context.Context, dl Delivery) Finished {
	now := d.db.Clock().Now()
	f := Finished{Delivery: dl, LeaseOwner: d.cfg.ID}
	stage := &botpay.PendingMessage{BotID: dl.BotID, EventID: dl.EventID, Event: dl.Type, Data: dl.Data,
		EventAt: dl.EventAt, StagedAt: now, ExpiresAt: now.Add(botpay.MessageLife(dl.Type))}
	if dl.Target == nil {
		f.Outcome = OutcomeNoBot
		return f
	}
	t := *dl.Target
	if !attempts(dl) {
		f.Stage, f.Outcome = stage, OutcomeStaged
		return f
	}
	retry := dl.Attempts > 0
	f.Attempted, f.URL = true, t.CallbackURL
	err := d.attempt(ctx, t, dl)
	if d.cfg.Observer != nil {
		d.cfg.Observer.DeliveryAttempted(err == nil, d.db.Clock().Now().Sub(dl.EventAt))
	}
	if err == nil {
		f.Outcome = OutcomeDelivered
		if !retry {
			f.Health = HealthSuccess
		}
		return f
	}
	d.log.Info("webhook delivery failed", "bot_id", dl.BotID, "event_id", dl.EventID, "attempt", dl.Attempts+1,
		"url", botpay.RedactURL(t.CallbackURL), "err", redactedError(err, t.CallbackURL))
	if !retry {
		f.Health = HealthFailure // retries never change health (docs/api.md)
	}
	f.Stage = stage // at once: nothing waits on retries to become visible
	if n := dl.Attempts + 1; n <= d.cfg.MaxRetries {
		f.RetryAt = now.Add(Backoff(d.cfg.RetryBase, n))
	} else {
		f.Outcome = OutcomeFailed
	}
	return f
}

// redactedError is err's text without the secrets a callback URL may hold:
// net/http's errors quote the URL whole, query and user information
// included (?token=SUPERSECRET123).
func redactedError(err error, callbackURL string) string {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		urlErr.URL = botpay.RedactURL(urlErr.URL)
	}
	msg := err.Error()
	if callbackURL != "" {
		msg = strings.ReplaceAll(msg, callbackURL, botpay.RedactURL(callbackURL))
	}
	return msg
}

// attempts says whether handling dl makes a delivery attempt; when not,
// handling is immediate (no bot, or the event is only staged). The outbox
// applied the same rule (botpay.AttemptsDelivery) when the event was
// written; this covers health that changed between the write and the claim.
func attempts(dl Delivery) bool {
	t := dl.Target
	return t != nil && botpay.AttemptsDelivery(t.deliveryTarget())
}

// attempt posts one signed delivery; only a 2xx answer is a success.
func (d *Dispatcher) attempt(ctx context.Context, t Target, dl Delivery) error {
	secret, err := d.cfg.Sealer.Open(t.SecretSealed, []byte("webhook_secret:"+t.BotID))
	if err != nil {
		return fmt.Errorf("open webhook secret: %w", err)
	}
	body, err := Body(dl.Type, dl.BotID, dl.EventAt, dl.Data)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	h := http.Header{}
	SignedHeaders(h, secret, dl.EventID, dl.Type, body, d.db.Clock().Now())
	var status int
	if t.Tunnel {
		if d.cfg.Tunnel == nil {
			return fmt.Errorf("no tunnel relay")
		}
		// The tunnel adds Authorization: Bearer <hooks token> when its client
		// takes the request: queued requests are stored, the token sealed.
		status, err = d.cfg.Tunnel.Relay(ctx, t.BotID, RelayRequest{Path: t.WebhookPath, Headers: h, Body: body})
		if err != nil {
			return err
		}
	} else {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.CallbackURL, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header = h
		resp, err := d.cfg.HTTP.Do(req)
		if err != nil {
			return err
		}
		// Drain a little so the connection can be reused; never much.
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		status = resp.StatusCode
	}
	if status < 200 || status > 299 {
		return fmt.Errorf("receiver answered HTTP %d", status)
	}
	return nil
}

// sleep waits for d or ctx; it uses timers so testing/synctest can drive it.
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
