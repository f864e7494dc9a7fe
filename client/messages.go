package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/botpay/botpay/wire"
)

// PendingMessage is an event the service staged because the bot's webhook
// was not usable, the items of Messages. The same event may also have
// reached the webhook (a retry that succeeded later), so deduplicate by
// EventID (the X-Service-Delivery header of webhook deliveries). MessageID
// is what Ack takes; Data is the event's data object, undecoded; ExpiresAt
// is 24 h after staging for rail5.card.delivered and purchase.*, 7 days for
// the rest.
type PendingMessage = wire.PendingMessage

// Messages lists staged, unacknowledged, unexpired events, oldest first.
// limit is 1-100; 0 lets the service pick its default (100). MessagesPage
// and AllMessages page further. Acknowledge
// what you have handled with Ack, or it is handed out again.
func (c *Client) Messages(ctx context.Context, limit int, opts ...CallOption) ([]PendingMessage, error) {
	var query url.Values
	if limit != 0 {
		query = url.Values{"limit": {strconv.Itoa(limit)}}
	}
	var out wire.ListMessagesResponse
	err := c.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bot/messages", query: query,
		token: c.apiKey, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return out.Messages, nil
}

// AckResult is the answer of Ack: ids acknowledged (including ones already
// acknowledged before), and ids that are unknown, expired or not this bot's.
type AckResult = wire.AckMessagesResponse

// Ack acknowledges staged messages so they are not handed out again
// (at most 1000 ids a call). Acknowledging twice is harmless.
func (c *Client) Ack(ctx context.Context, messageIDs []int64, opts ...CallOption) (*AckResult, error) {
	if messageIDs == nil {
		messageIDs = []int64{}
	}
	var out AckResult
	in := wire.AckMessagesRequest{MessageIDs: messageIDs}
	if err := c.do(ctx, http.MethodPost, "/api/v1/bot/messages/ack", in, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}
