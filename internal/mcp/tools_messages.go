package mcp

import (
	"context"
	"encoding/json"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

type listMessagesInput struct {
	Limit  int    `json:"limit,omitempty" jsonschema:"how many messages, oldest first (1-100, default 100)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page"`
}

// ackInput is the body of an acknowledgement.
type ackInput struct{ wire.AckMessagesRequest }

func messageTools() []toolDef {
	return []toolDef{
		endpoint(newTool("list_messages",
			"Lists events waiting for this bot (kept when its webhook is missing or unreachable), oldest first: wallet.funded, "+
				"wallet.topup.completed, purchase.approved / purchase.rejected / purchase.expired (the owner's decisions on held purchases and "+
				"signatures; a signature's purchase.approved carries x_payment_header), wallet.sale.completed, wallet.payment.received, "+
				"rails.updated and more. Messages stay until acknowledged with ack_messages or until they expire ("+span(botpay.ShortMessageLife)+" for purchase "+
				"events, "+span(botpay.DefaultMessageLife)+" for the rest).",
			hints{title: "List pending messages", readOnly: true}, inputSchema[listMessagesInput](), messagesOutput),
			func(in listMessagesInput, _ json.RawMessage) (call, error) {
				return answered(func(bot *client.Client, ctx context.Context, opts ...client.CallOption) (*client.Page[client.PendingMessage], error) {
					return bot.MessagesPage(ctx, page(in.Limit, in.Cursor), opts...)
				}), nil
			}),
		endpoint(newTool("ack_messages",
			"Acknowledges handled messages so list_messages stops showing them; they are gone afterwards. Ids that are unknown or "+
				"already acknowledged come back in not_found, so calling twice is harmless.",
			hints{title: "Acknowledge messages", destructive: true, idempotent: true}, inputSchema[ackInput](), ackOutput),
			func(in ackInput, raw json.RawMessage) (call, error) {
				return relayed(raw, "", func(bot *client.Client, ctx context.Context, in ackInput, opts ...client.CallOption) (*client.AckResult, error) {
					return bot.Ack(ctx, in.MessageIDs, opts...)
				})
			}),
	}
}
