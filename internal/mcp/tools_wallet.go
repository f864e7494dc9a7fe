package mcp

import (
	"context"
	"encoding/json"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/wire"
)

// The tools' input structs describe their arguments to the agent with
// jsonschema descriptions, which the client's request types do not carry,
// and add the tool-only idempotency_key; a POST tool's body is the
// arguments as the agent wrote them (relayed), so these structs never
// shape what reaches the endpoint.

type noInput struct{}

type listTransactionsInput struct {
	Limit  int    `json:"limit,omitempty" jsonschema:"how many transactions, newest first (1-100, default 50)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, to read further back"`
}

// topupInput is the body of a top-up request and the idempotency key.
type topupInput struct {
	wire.RequestTopupRequest
	idempotency
}

func walletTools() []toolDef {
	return []toolDef{
		endpoint(newTool("get_status",
			"Shows this bot's account at a glance: whether an owner has claimed it (status active, pending, frozen or inactive), "+
				"its rails (card_wallet in USD and processor_wallet in USDC for x402, with balances and limits), the owner's master guardrails, "+
				"webhook health and how many events wait in list_messages. Call it first, and again after a rails.updated event. "+
				"If status is pending, the owner has not claimed the bot yet and nothing can be spent.",
			hints{title: "Bot status", readOnly: true}, inputSchema[noInput](), statusOutput),
			func(noInput, json.RawMessage) (call, error) { return answered((*client.Client).Status), nil }),
		endpoint(newTool("check_wallet",
			"Checks the card wallet: wallet_status (active, empty, pending or inactive), the available balance in USD (amounts held for "+
				"purchases awaiting the owner are already subtracted and shown as held_usd), the monthly spending limit and what is left of it, "+
				"and unfulfilled top-up requests. Call it before a purchase; if the balance is too low, call request_topup.",
			hints{title: "Check wallet", readOnly: true}, inputSchema[noInput](), walletCheckOutput),
			func(noInput, json.RawMessage) (call, error) { return answered((*client.Client).WalletCheck), nil }),
		endpoint(newTool("list_transactions",
			"Lists the card wallet's ledger, newest first: funding, spends, sales and refunds, each with its amount (negative for "+
				"debits) and the balance after it. Refused with wallet_not_active until the owner claims the bot. For more, pass next_cursor as cursor.",
			hints{title: "List transactions", readOnly: true},
			inputSchema[listTransactionsInput](), transactionsOutput),
			func(in listTransactionsInput, _ json.RawMessage) (call, error) {
				return answered(func(bot *client.Client, ctx context.Context, opts ...client.CallOption) (*client.Page[client.Transaction], error) {
					return bot.TransactionsPage(ctx, page(in.Limit, in.Cursor), opts...)
				}), nil
			}),
		endpoint(newTool("get_spending_rules",
			"Reads the guardrails the owner set for this bot: the approval mode (ask_for_everything, auto_approve_under_threshold, "+
				"auto_approve_by_category), per-transaction, daily and monthly limits, the amount above which the owner must approve, "+
				"approved and blocked categories, and the owner's notes. Read it before buying so a purchase fits the rules instead of being refused or held.",
			hints{title: "Spending rules", readOnly: true}, inputSchema[noInput](), guardrailsOutput),
			func(noInput, json.RawMessage) (call, error) { return answered((*client.Client).Spending), nil }),
		endpoint(newTool("request_topup",
			"Asks the owner to add money: records a top-up request and e-mails the owner with the amount and reason. It moves no money; "+
				"the owner decides. When the owner funds the wallet you get wallet.funded (and wallet.topup.completed) in list_messages. "+
				"Refused with wallet_not_active before the owner claims the bot, and "+topupLimitText+".",
			hints{title: "Request a top-up", openWorld: true},
			inputSchema[topupInput](), outputSchema[client.TopupRequestResult](describe("owner_notified", "whether the e-mail to the owner went out"))),
			func(in topupInput, raw json.RawMessage) (call, error) {
				return relayed(raw, in.IdempotencyKey,
					func(bot *client.Client, ctx context.Context, in topupInput, opts ...client.CallOption) (*client.TopupRequestResult, error) {
						return bot.TopupRequest(ctx, in.AmountUSD, deref(in.Reason), opts...)
					})
			}),
	}
}
