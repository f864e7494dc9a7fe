package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// PendingMessage is an event the service staged because the bot's webhook
// was not usable (docs/api.md, docs/decisions.md). The same event
// may also have reached the webhook (a retry that succeeded later), so
// deduplicate by EventID.
type PendingMessage struct {
	// MessageID is what Ack takes.
	MessageID int64 `json:"message_id"`
	// EventID is the event's id, the X-Service-Delivery header of webhook
	// deliveries: the key to deduplicate by.
	EventID string `json:"event_id"`
	Event   string `json:"event"`
	// Data is the event's data object (docs/api.md), undecoded.
	Data json.RawMessage `json:"data"`
	// Timestamp is when the event happened.
	Timestamp time.Time `json:"timestamp"`
	StagedAt  time.Time `json:"staged_at"`
	// ExpiresAt: 24 h after staging for rail5.card.delivered and
	// purchase.*, 7 days for the rest.
	ExpiresAt time.Time `json:"expires_at"`
}

// Messages lists staged, unacknowledged, unexpired events, oldest first.
// limit is 1-100; 0 lets the service pick its default (100). MessagesPage
// and AllMessages page further. Acknowledge
// what you have handled with Ack, or it is handed out again.
func (c *Client) Messages(ctx context.Context, limit int, opts ...CallOption) ([]PendingMessage, error) {
	var query url.Values
	if limit != 0 {
		query = url.Values{"limit": {strconv.Itoa(limit)}}
	}
	var out struct {
		Messages []PendingMessage `json:"messages"`
	}
	err := c.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bot/messages", query: query,
		token: c.apiKey, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return out.Messages, nil
}

// AckResult is the answer of Ack: ids acknowledged (including ones already
// acknowledged before), and ids that are unknown, expired or not this bot's.
type AckResult struct {
	Acknowledged []int64 `json:"acknowledged"`
	NotFound     []int64 `json:"not_found"`
}

// Ack acknowledges staged messages so they are not handed out again
// (at most 1000 ids a call). Acknowledging twice is harmless.
func (c *Client) Ack(ctx context.Context, messageIDs []int64, opts ...CallOption) (*AckResult, error) {
	if messageIDs == nil {
		messageIDs = []int64{}
	}
	var out AckResult
	in := map[string][]int64{"message_ids": messageIDs}
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/messages/ack", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
