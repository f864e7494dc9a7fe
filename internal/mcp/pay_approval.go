package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/x402"
	"github.com/botpay/botpay/wire"
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
		list, res := p.messagePage(ctx, cursor)
		if res != nil {
			return nil, res
		}
		if d := decisionOn(list, p.in.ApprovalID); d != nil {
			return d, nil
		}
		if list.NextCursor == "" {
			return nil, nil
		}
		cursor = list.NextCursor
	}
	return nil, nil
}

// messagePage is one page of the pending messages, 100 at a time.
type messagePage = client.Page[client.PendingMessage]

func (p *payer) messagePage(ctx context.Context, cursor string) (*messagePage, *sdk.CallToolResult) {
	var ans client.Answer
	list, err := p.deps.API.MessagesPage(ctx, page(100, cursor), client.WithAnswer(&ans))
	if res := failed(ans, err); res != nil {
		return nil, res
	}
	return list, nil
}

// decisionOn is the owner's decision on the held signature id, if this
// page announces it.
func decisionOn(page *messagePage, id int64) *decision {
	for _, m := range page.Items {
		switch m.Event {
		case "purchase.approved", "purchase.rejected", "purchase.expired":
		default:
			continue
		}
		// The approved event's data holds every field the rejected and
		// expired events' data hold.
		var data wire.EventDataPurchaseApproved
		if json.Unmarshal(m.Data, &data) != nil {
			continue
		}
		if data.ApprovalID != nil && *data.ApprovalID == id && (m.Event != "purchase.approved" || deref(data.XPaymentHeader) != "") {
			// The header paying the vendor's own offer, when the 402 was
			// handed over with the held request: v2 first, as it was asked.
			header := signedHeader{name: x402.HeaderXPayment, value: orText(deref(data.XPaymentStandardHeader), deref(data.XPaymentHeader))}
			if v := deref(data.PaymentSignatureHeader); v != "" {
				header = signedHeader{name: x402.HeaderPaymentSignature, value: v}
			}
			return &decision{event: m.Event, resourceURL: deref(data.ResourceURL), header: header}
		}
	}
	return nil
}
