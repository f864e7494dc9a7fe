package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/x402"
)

type payInput struct {
	URL            string `json:"url" jsonschema:"the http(s) URL of the paid resource"`
	Method         string `json:"method,omitempty" jsonschema:"GET (default) or POST"`
	Body           string `json:"body,omitempty" jsonschema:"request body for POST"`
	ContentType    string `json:"content_type,omitempty" jsonschema:"Content-Type of body (default application/json)"`
	MaxAmountUSDC  int64  `json:"max_amount_usdc,omitempty" jsonschema:"refuse to pay more than this many micro-USDC (1 USDC = 1000000); no cap of your own when left out (the owner's guardrails still apply)"`
	ApprovalID     int64  `json:"approval_id,omitempty" jsonschema:"after a held payment: its approval_id, to finish the payment once the owner approved it (read from purchase.approved in list_messages)"`
	XPaymentHeader string `json:"x_payment_header,omitempty" jsonschema:"an already signed header for this resource (from a purchase.approved event): sent as X-PAYMENT without signing again"`
	IdempotencyKey string `json:"idempotency_key,omitempty" jsonschema:"any unique string per payment: a retry with the same key reuses the same signature (same nonce), so the vendor cannot be paid twice"`
}

func payTool() toolDef {
	tool := newTool("pay_x402_resource",
		"Fetches a URL and pays for it if it answers HTTP 402 with x402 requirements: picks the requirement this bot can pay (scheme "+
			"exact, in USDC on the network the service signs for), signs the payment from the bot's processor wallet within the owner's "+
			"guardrails (approval mode, limits, procurement controls such as blocked domains), retries with the X-PAYMENT header and "+
			"answers the resource's body (text, or base64 for binary; at most 256 KiB), the decoded settlement (X-PAYMENT-RESPONSE) and the "+
			"amount paid. The URL is fetched through botpay's outbound guard: internal, private and metadata addresses are refused. "+
			"If the owner must approve the payment first, the answer is outcome awaiting_approval with an approval_id (not an error): "+
			"once purchase.approved appears in list_messages, call this tool again with the same url and that approval_id. "+
			"Refusals are error results with a code: guardrail_blocked (with the reason), insufficient_token_balance, no_processor_wallet, "+
			"no_payable_requirement, over_max_amount, payment_refused, destination_refused. Pass an idempotency_key so a retry never pays twice.",
		hints{title: "Pay for an x402 resource", destructive: true, openWorld: true},
		inputSchema[payInput](enum("method", "GET", "POST")), outputSchema[paidResourceOut]())
	return toolDef{tool: tool, bind: func(s *sdk.Server, t *sdk.Tool, deps Resolver) {
		sdk.AddTool(s, t, func(ctx context.Context, req *sdk.CallToolRequest, in payInput) (*sdk.CallToolResult, any, error) {
			return (&payer{deps: deps(req.Extra), in: in}).run(ctx)
		})
	}}
}

// payer runs one pay_x402_resource call.
type payer struct {
	deps *Deps
	in   payInput
}

func (p *payer) run(ctx context.Context) (*sdk.CallToolResult, any, error) {
	if res := p.checkURL(); res != nil {
		return res, nil, nil
	}
	switch {
	case p.in.ApprovalID != 0:
		return p.afterApproval(ctx)
	case p.in.XPaymentHeader != "":
		return p.payWith(ctx, p.in.XPaymentHeader, paidResourceOut{})
	}
	first, res := p.fetch(ctx, "")
	if res != nil {
		return res, nil, nil
	}
	if first.status != 402 {
		out := first.describe(p.in.URL)
		out.Outcome = "no_payment_required"
		return success(out), out, nil
	}
	need, res := p.choose(first)
	if res != nil {
		return res, nil, nil
	}
	return p.signAndPay(ctx, need)
}

// checkURL refuses what cannot be fetched before anything is signed.
func (p *payer) checkURL() *sdk.CallToolResult {
	u, err := url.Parse(p.in.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return toolError(CodeInvalidArguments, "url must be an absolute http or https URL", nil)
	}
	if p.in.Method != "" && p.in.Method != "GET" && p.in.Method != "POST" {
		return toolError(CodeInvalidArguments, "method must be GET or POST", nil)
	}
	if err := p.deps.Outbound.Check(p.in.URL); err != nil {
		return toolError(CodeDestinationRefused, err.Error(), nil)
	}
	return nil
}

// requirement is the x402 requirement chosen to pay, with its amount.
type requirement struct {
	x402.Requirement
	amount uint64
}

// choose picks the cheapest requirement the service can sign: scheme
// exact, on the service's network, in its token.
func (p *payer) choose(first fetched) (requirement, *sdk.CallToolResult) {
	var asked x402.PaymentRequired
	if err := json.Unmarshal(first.body, &asked); err != nil || len(asked.Accepts) == 0 {
		return requirement{}, toolError(CodeNoPayableRequirement, "the resource answered 402 without x402 v1 requirements", nil)
	}
	target := p.deps.Payment
	var best *requirement
	var offered []string
	for _, a := range asked.Accepts {
		offered = append(offered, a.Scheme+" "+a.Network+" "+a.Asset)
		amount, ok := parseAmount(a.MaxAmountRequired)
		if a.Scheme != x402.Scheme || a.Network != target.Network || !strings.EqualFold(a.Asset, target.Asset) || !ok {
			continue
		}
		if _, err := x402.ParseAddress(a.PayTo); err != nil {
			continue
		}
		if best == nil || amount < best.amount {
			best = &requirement{Requirement: a, amount: amount}
		}
	}
	if best == nil {
		return requirement{}, toolError(CodeNoPayableRequirement, fmt.Sprintf("the service signs exact USDC payments on %s (token %s); the resource offers: %s",
			target.Network, target.Asset, strings.Join(offered, "; ")), nil)
	}
	if max := p.in.MaxAmountUSDC; max > 0 && best.amount > uint64(max) {
		return requirement{}, toolError(CodeOverMaxAmount, fmt.Sprintf("the resource asks %d micro-USDC, above max_amount_usdc %d", best.amount, max),
			map[string]any{"amount_usdc": best.amount})
	}
	return *best, nil
}

// parseAmount reads maxAmountRequired: a positive integer in canonical
// decimal form.
func parseAmount(s string) (uint64, bool) {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n == 0 || strconv.FormatUint(n, 10) != s || n > 1<<62 {
		return 0, false
	}
	return n, true
}

// micro renders micro-USDC as the dollar number of the answers.
func micro(n uint64) botpay.Micro { return botpay.Micro(n) }
