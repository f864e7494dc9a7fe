package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/internal/x402"
)

// decision is the owner's decision on a held signature, as a pending
// message announced it.
type decision struct {
	event       string
	resourceURL string
	header      signedHeader
}

// afterApproval finishes a payment that was held for the owner: it finds
// the decision on approval_id among the pending messages and, when
// approved, pays with the header signed at approval.
func (p *payer) afterApproval(ctx context.Context) (*sdk.CallToolResult, any, error) {
	d, res := p.findDecision(ctx)
	if res != nil {
		return res, nil, nil
	}
	id := p.in.ApprovalID
	switch {
	case d == nil:
		out := paidResourceOut{Outcome: "awaiting_approval", URL: p.in.URL, ApprovalID: id,
			NextStep: fmt.Sprintf("No decision on approval_id %d among the pending messages yet: the owner has not decided. Call again later. "+
				"If your webhook receives events, take x_payment_header from its purchase.approved event and pass it as x_payment_header instead.", id)}
		return success(out), out, nil
	case d.event != "purchase.approved":
		return toolError(CodeApprovalRejected, fmt.Sprintf("the payment held as approval_id %d was not approved (%s); it will not be paid", id, d.event), nil), nil, nil
	case d.resourceURL != p.in.URL:
		return toolError(CodeApprovalMismatch, fmt.Sprintf("approval_id %d was approved for %s, not for %s", id, d.resourceURL, p.in.URL), nil), nil, nil
	}
	return p.payWith(ctx, d.header, paidResourceOut{})
}

// maxDecisionPages bounds how many pages of pending messages are read
// looking for a decision (100 messages a page).
const maxDecisionPages = 20

// findDecision reads the pending messages, page after page, for the
// decision on approval_id.
func (p *payer) findDecision(ctx context.Context) (*decision, *sdk.CallToolResult) {
	cursor := ""
	for range maxDecisionPages {
		page, res := p.messagePage(ctx, cursor)
		if res != nil {
			return nil, res
		}
		if d := page.decisionOn(p.in.ApprovalID); d != nil {
			return d, nil
		}
		if page.NextCursor == nil || *page.NextCursor == "" {
			return nil, nil
		}
		cursor = *page.NextCursor
	}
	return nil, nil
}

// messagePage is one page of GET /api/v1/bot/messages, as far as a
// decision on a signature needs it.
type messagePage struct {
	Messages []struct {
		Event string `json:"event"`
		Data  struct {
			ApprovalID             int64  `json:"approval_id"`
			ResourceURL            string `json:"resource_url"`
			XPaymentHeader         string `json:"x_payment_header"`
			PaymentSignatureHeader string `json:"payment_signature_header"`
			XPaymentStandardHeader string `json:"x_payment_standard_header"`
		} `json:"data"`
	} `json:"messages"`
	NextCursor *string `json:"next_cursor"`
}

func (p *payer) messagePage(ctx context.Context, cursor string) (messagePage, *sdk.CallToolResult) {
	r := get("/api/v1/bot/messages", map[string]string{"limit": "100", "cursor": cursor})
	ans, err := p.deps.API.Do(ctx, r)
	if err != nil {
		return messagePage{}, unreachable(err)
	}
	if !ans.OK() {
		return messagePage{}, refusal(r, ans)
	}
	var page messagePage
	if err := json.Unmarshal(ans.Body, &page); err != nil {
		return messagePage{}, toolError(CodeServiceUnreachable, "the messages answer is not JSON", nil)
	}
	return page, nil
}

// decisionOn is the owner's decision on the held signature id, if this
// page announces it.
func (page messagePage) decisionOn(id int64) *decision {
	for _, m := range page.Messages {
		switch m.Event {
		case "purchase.approved", "purchase.rejected", "purchase.expired":
		default:
			continue
		}
		if m.Data.ApprovalID == id && (m.Event != "purchase.approved" || m.Data.XPaymentHeader != "") {
			// The header paying the vendor's own offer, when the 402 was
			// handed over with the held request: v2 first, as it was asked.
			header := signedHeader{name: x402.HeaderXPayment, value: orText(m.Data.XPaymentStandardHeader, m.Data.XPaymentHeader)}
			if m.Data.PaymentSignatureHeader != "" {
				header = signedHeader{name: x402.HeaderPaymentSignature, value: m.Data.PaymentSignatureHeader}
			}
			return &decision{event: m.Event, resourceURL: m.Data.ResourceURL, header: header}
		}
	}
	return nil
}
