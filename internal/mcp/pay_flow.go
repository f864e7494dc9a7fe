package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/x402"
)

// signAndPay asks the sign endpoint for the payment (its guardrails,
// approvals and limits apply), then retries the resource with it.
func (p *payer) signAndPay(ctx context.Context, need requirement) (*sdk.CallToolResult, any, error) {
	// The signed resource_url is the URL fetched, never the requirement's
	// own "resource": a vendor must not dodge the owner's blocked domains
	// by naming an allowed one.
	var ans client.Answer
	signed, err := p.deps.API.Sign(ctx, client.SignRequest{ResourceURL: p.in.URL, AmountUSDC: client.MicroUSDC(need.amount),
		RecipientAddress: need.PayTo, PaymentRequired: need.handOver},
		client.WithIdempotencyKey(p.in.IdempotencyKey), client.WithAnswer(&ans))
	if res := failed(ans, err); res != nil {
		return res, nil, nil
	}
	base := paidResourceOut{URL: p.in.URL, AmountUSDC: int64(need.amount), AmountUSD: micro(need.amount), PayTo: need.PayTo,
		Network: need.Network, Asset: need.Asset}
	if signed.AwaitingApproval() {
		expires := ""
		if !signed.ExpiresAt.IsZero() {
			expires = botpay.FormatTime(signed.ExpiresAt.Time) // as the endpoint wrote it
		}
		base.Outcome, base.ApprovalID, base.ExpiresAt = "awaiting_approval", signed.ApprovalID, expires
		base.NextStep = fmt.Sprintf("The owner must approve this payment (approval_id %d) before %s. Wait for purchase.approved "+
			"with approval_id %d in list_messages (or your webhook), then call pay_x402_resource again with the same url and approval_id %d. "+
			"purchase.rejected or purchase.expired means it will not be paid.", signed.ApprovalID, expires, signed.ApprovalID, signed.ApprovalID)
		return success(base), base, nil
	}
	if res := p.checkSigned(signed.XPaymentHeader, need); res != nil {
		return res, nil, nil
	}
	header := signedHeader{name: x402.HeaderXPayment, value: orText(deref(signed.XPaymentStandardHeader), signed.XPaymentHeader)}
	if need.version == x402.Version2 {
		if deref(signed.PaymentSignatureHeader) == "" {
			return toolError(CodeSignedForOtherChain, "the resource asks in x402 v2 and the service signed no PAYMENT-SIGNATURE for it", nil), nil, nil
		}
		header = signedHeader{name: x402.HeaderPaymentSignature, value: *signed.PaymentSignatureHeader}
	}
	return p.payWith(ctx, header, base)
}

// checkSigned refuses to send a header that does not pay what was asked
// (another network, token, recipient or amount): the vendor would refuse
// it, and it says the service is configured for another chain.
func (p *payer) checkSigned(header string, need requirement) *sdk.CallToolResult {
	pay, err := x402.Decode(header)
	if err != nil {
		return toolError(CodeSignedForOtherChain, "the signed header cannot be read: "+err.Error(), nil)
	}
	to, _ := x402.ParseAddress(need.PayTo)
	token, _ := x402.ParseAddress(need.Asset)
	chain := p.deps.Payment.ChainID
	switch {
	case pay.ChainID != 0 && chain != 0 && pay.ChainID != chain, !pay.Token.IsZero() && pay.Token != token:
		return toolError(CodeSignedForOtherChain, fmt.Sprintf("the service signed for chain %d token %s, the resource wants %s token %s",
			pay.ChainID, pay.Token.Hex(), need.Network, need.Asset), nil)
	case pay.Authorization.To != to || pay.Authorization.Value != need.amount:
		return toolError(CodeSignedForOtherChain, "the signed payment does not match the requirement's recipient and amount", nil)
	}
	return nil
}

// payWith retries the resource with the payment header and reports the
// outcome.
func (p *payer) payWith(ctx context.Context, header signedHeader, out paidResourceOut) (*sdk.CallToolResult, any, error) {
	paid, res := p.fetch(ctx, header)
	if res != nil {
		return res, nil, nil
	}
	got := paid.describe(p.in.URL)
	if out.AmountUSDC == 0 { // a header signed earlier: what it pays is inside
		if pay, err := paymentIn(header); err == nil {
			out.AmountUSDC, out.AmountUSD, out.PayTo = int64(pay.Authorization.Value), micro(pay.Authorization.Value), pay.Authorization.To.Hex()
		}
	}
	got.AmountUSDC, got.AmountUSD, got.PayTo, got.Network, got.Asset = out.AmountUSDC, out.AmountUSD, out.PayTo, out.Network, out.Asset
	got.X402Version, got.XPaymentHeader = x402.Version, header.value
	if header.name == x402.HeaderPaymentSignature {
		got.X402Version, got.XPaymentHeader, got.PaymentSignatureHeader = x402.Version2, "", header.value
	}
	switch {
	case paid.status == 402:
		reason := refusalReason(paid)
		res := toolError(CodePaymentRefused, "the resource refused the payment (its reason is in reason, written by the resource)",
			map[string]any{"http_status": paid.status, "reason": reason, "untrusted_fields": []string{"reason"}})
		return withUntrusted(res, "the resource "+p.in.URL+" (its refusal)", orText(reason, "no reason given")), nil, nil
	case paid.status < 200 || paid.status > 299:
		return toolError(CodePaymentRefused, fmt.Sprintf("the resource answered HTTP %d to the paid request", paid.status),
			map[string]any{"http_status": paid.status, "body": got.Body, "settlement": got.Settlement,
				"untrusted_fields": got.UntrustedFields}), nil, nil
	}
	got.Outcome = "paid"
	return success(got), got, nil
}

// success is a result whose text is the structured output, with its next
// step beside it; a text body the resource wrote comes again in a block
// marked as the resource's.
func success(out paidResourceOut) *sdk.CallToolResult {
	text, _ := json.Marshal(out)
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(text)}}}
	if out.Body != "" {
		res.Content[0].(*sdk.TextContent).Meta = untrustedMeta("the resource " + out.URL)
	}
	if out.NextStep != "" {
		res.Content = append(res.Content, &sdk.TextContent{Text: out.NextStep})
	}
	if out.Body != "" && out.BodyEncoding == "text" {
		res = withUntrusted(res, "the resource "+out.URL+" (its answer)", out.Body)
	}
	return res
}

// withUntrusted adds text the vendor wrote to res, marked as such.
func withUntrusted(res *sdk.CallToolResult, source, text string) *sdk.CallToolResult {
	res.Content = append(res.Content, untrustedText(source, text))
	return res
}

func orText(s, fallback string) string {
	if strings.TrimSpace(s) == "" {
		return fallback
	}
	return s
}

// paymentIn is the payment a header carries, in either version.
func paymentIn(header signedHeader) (x402.Payment, error) {
	if header.name == x402.HeaderPaymentSignature {
		sig, err := x402.DecodePaymentSignature(header.value)
		return sig.Payment, err
	}
	return x402.Decode(header.value)
}

// refusalReason is why a resource refused a payment: the error of its
// PAYMENT-REQUIRED, else of its v1 body.
func refusalReason(paid fetched) string {
	if required, err := x402.DecodePaymentRequired(paid.header.Get(x402.HeaderPaymentRequired)); err == nil && required.Error != "" {
		return required.Error
	}
	var refused x402.PaymentRequired
	json.Unmarshal(paid.body, &refused)
	return refused.Error
}
