package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/x402"
)

type payInput struct {
	URL                    string `json:"url" jsonschema:"the http(s) URL of the paid resource"`
	Method                 string `json:"method,omitempty" jsonschema:"GET (default) or POST"`
	Body                   string `json:"body,omitempty" jsonschema:"request body for POST"`
	ContentType            string `json:"content_type,omitempty" jsonschema:"Content-Type of body (default application/json)"`
	MaxAmountUSDC          int64  `json:"max_amount_usdc,omitempty" jsonschema:"refuse to pay more than this many micro-USDC (1 USDC = 1000000); no cap of your own when left out (the owner's guardrails still apply)"`
	ApprovalID             int64  `json:"approval_id,omitempty" jsonschema:"after a held payment: its approval_id, to finish the payment once the owner approved it (read from purchase.approved in list_messages)"`
	XPaymentHeader         string `json:"x_payment_header,omitempty" jsonschema:"an already signed header for this resource (from a purchase.approved event): sent as X-PAYMENT without signing again"`
	PaymentSignatureHeader string `json:"payment_signature_header,omitempty" jsonschema:"an already signed x402 v2 header for this resource (payment_signature_header of a purchase.approved event): sent as PAYMENT-SIGNATURE without signing again"`
	IdempotencyKey         string `json:"idempotency_key,omitempty" jsonschema:"any unique string per payment: a retry with the same key reuses the same signature (same nonce), so the vendor cannot be paid twice"`
}

func payTool() toolDef {
	tool := newTool("pay_x402_resource",
		"Fetches a URL and pays for it if it answers HTTP 402 with x402 requirements, version 2 (PAYMENT-REQUIRED header, read first) "+
			"or 1 (JSON body): picks the requirement this bot can pay (scheme exact, in USDC on the network the service signs for), signs "+
			"the payment from the bot's processor wallet within the owner's guardrails (approval mode, limits, procurement controls such "+
			"as blocked domains), retries with PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1) and answers the resource's body (text, or base64 "+
			"for binary; at most "+strconv.Itoa(maxResourceBytes>>10)+" KiB), the decoded settlement (PAYMENT-RESPONSE or X-PAYMENT-RESPONSE) and the amount paid. The URL is fetched through botpay's outbound guard: internal, private and metadata addresses are refused. "+
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
	case p.in.PaymentSignatureHeader != "":
		return p.payWith(ctx, signedHeader{name: x402.HeaderPaymentSignature, value: p.in.PaymentSignatureHeader}, paidResourceOut{})
	case p.in.XPaymentHeader != "":
		return p.payWith(ctx, signedHeader{name: x402.HeaderXPayment, value: p.in.XPaymentHeader}, paidResourceOut{})
	}
	first, res := p.fetch(ctx, signedHeader{})
	if res != nil {
		return res, nil, nil
	}
	if first.status != 402 {
		out := first.describe(p.in.URL)
		out.Outcome = "no_payment_required"
		return success(out), out, nil
	}
	if res := p.resolveTarget(ctx); res != nil {
		return res, nil, nil
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

// requirement is the x402 offer chosen to pay, in v1 terms, with its
// amount, its version and what goes to the sign endpoint as
// payment_required.
type requirement struct {
	x402.Requirement
	amount   uint64
	version  int
	handOver any
}

// choose picks what to pay among the offers the service can sign: scheme
// exact, on the service's network, in its token. A resource asking with
// PAYMENT-REQUIRED is paid in v2, its first such offer (the one the sign
// endpoint picks from the header it is handed); one asking only with the
// v1 body in v1, its cheapest such requirement, and the sign endpoint is
// handed the body with that requirement alone so it picks the same one.
func (p *payer) choose(first fetched) (requirement, *sdk.CallToolResult) {
	asked, handOver, version := p.offers(first)
	if asked == nil {
		return requirement{}, toolError(CodeNoPayableRequirement, "the resource answered 402 without x402 requirements (no PAYMENT-REQUIRED, no v1 body)", nil)
	}
	target := p.deps.Payment
	var best *requirement
	var offered []string
	for i, a := range asked {
		offered = append(offered, a.Scheme+" "+a.Network+" "+a.Asset)
		amount, ok := parseAmount(a.MaxAmountRequired)
		if a.Scheme != x402.Scheme || !target.pays(a.Network, version) || (target.Asset != "" && !strings.EqualFold(a.Asset, target.Asset)) || !ok {
			continue
		}
		if _, err := x402.ParseAddress(a.PayTo); err != nil {
			continue
		}
		if best == nil || (version == x402.Version && amount < best.amount) {
			best = &requirement{Requirement: a, amount: amount, version: version, handOver: handOver}
			if version == x402.Version {
				best.handOver = narrowedV1(first.body, i)
			}
		}
	}
	if best == nil {
		return requirement{}, toolError(CodeNoPayableRequirement, fmt.Sprintf("the service signs exact USDC payments on %s (token %s); the resource offers: %s",
			target.Network, orText(target.Asset, "its USDC"), strings.Join(offered, "; ")), nil)
	}
	if max := p.in.MaxAmountUSDC; max > 0 && best.amount > uint64(max) {
		return requirement{}, toolError(CodeOverMaxAmount, fmt.Sprintf("the resource asks %d micro-USDC, above max_amount_usdc %d", best.amount, max),
			map[string]any{"amount_usdc": best.amount})
	}
	return *best, nil
}

// offers are what the 402 asks, in v1 terms: from PAYMENT-REQUIRED when it
// is readable, else from the v1 body; nil when neither.
func (p *payer) offers(first fetched) ([]x402.Requirement, any, int) {
	if header := first.header.Get(x402.HeaderPaymentRequired); header != "" {
		if required, err := x402.DecodePaymentRequired(header); err == nil {
			out := make([]x402.Requirement, 0, len(required.Accepts))
			for _, o := range required.Accepts {
				out = append(out, x402.Requirement{Scheme: o.Scheme, Network: o.Network, MaxAmountRequired: o.Amount,
					Resource: required.Resource.URL, PayTo: o.PayTo, Asset: o.Asset, MaxTimeoutSeconds: o.MaxTimeoutSeconds})
			}
			return out, header, x402.Version2
		}
	}
	var asked x402.PaymentRequired
	if err := json.Unmarshal(first.body, &asked); err != nil || len(asked.Accepts) == 0 {
		return nil, nil, 0
	}
	return asked.Accepts, json.RawMessage(first.body), x402.Version
}

// narrowedV1 is the v1 body keeping only its requirement i, as written.
func narrowedV1(body []byte, i int) json.RawMessage {
	var doc map[string]json.RawMessage
	var accepts []json.RawMessage
	if json.Unmarshal(body, &doc) != nil || json.Unmarshal(doc["accepts"], &accepts) != nil || i >= len(accepts) {
		return json.RawMessage(body)
	}
	doc["accepts"], _ = json.Marshal([]json.RawMessage{accepts[i]})
	out, _ := json.Marshal(doc)
	return out
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

// resolveTarget asks the service which network it signs on when the
// server was not told (the zero Payment): the v1 name and the chain of its
// facilitator's supported kinds.
func (p *payer) resolveTarget(ctx context.Context) *sdk.CallToolResult {
	if p.deps.Payment.ChainID != 0 {
		return nil
	}
	var ans client.Answer
	supported, err := p.deps.API.FacilitatorSupported(ctx, client.WithAnswer(&ans))
	if res := failed(ans, err); res != nil {
		return res
	}
	target := Payment{}
	for _, k := range supported.Kinds {
		if id, ok := x402.ChainOfCAIP2(k.Network); ok && k.X402Version == x402.Version2 {
			target.ChainID = id
		} else if k.X402Version == x402.Version {
			target.Network = k.Network
		}
	}
	if target.ChainID == 0 {
		return toolError(CodeServiceUnreachable, "the service names no x402 v2 network it signs on", nil)
	}
	deps := *p.deps
	deps.Payment = target
	p.deps = &deps
	return nil
}
