package e2e

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/testserver"
)

// x402Market is a seller bot with a checkout page and a buyer bot with a
// funded processor wallet, the buyer reached through MCP.
type x402Market struct {
	r             raw
	seller, buyer x402Bot
	sellerAgent   agent
	buyerAgent    agent
	resource      string // the page's x402 URL
	pageID        string
}

func (h *harness) x402Market(t *testing.T, transport string) x402Market {
	t.Helper()
	r := raw{t: t, srv: h.srv}
	m := x402Market{r: r, seller: r.walletBot(transport+"-seller", 0), buyer: r.walletBot(transport+"-buyer", 20)}
	m.sellerAgent = h.mcpAgent(t, transport, m.seller.APIKey)
	m.buyerAgent = h.mcpAgent(t, transport, m.buyer.APIKey)
	page := m.sellerAgent.ok("create_checkout_page", map[string]any{"title": "Dataset", "amount_usd": 0.05,
		"page_type": "digital_product", "digital_product_url": "https://files.example/dataset.csv"})
	m.pageID = page["checkout_page_id"].(string)
	m.resource = h.srv.URL + "/api/v1/checkout/" + m.pageID + "/x402"
	return m
}

// sales lists the seller's sales through its own MCP tool.
func (m x402Market) sales() []any {
	return m.sellerAgent.ok("list_sales", nil)["sales"].([]any)
}

// pay_x402_resource pays another bot's checkout page through its x402
// endpoint: 402, a signature within the buyer's guardrails, the retry with
// X-PAYMENT, and the settlement; the seller's sales list shows the sale.
// A retry with the same idempotency key reuses the signature, so the page
// is not paid twice.
func mcpPayX402ResourcePaysAnotherBotsCheckoutPage(t *testing.T, h *harness, transport string) {
	m := h.x402Market(t, transport)
	args := map[string]any{"url": m.resource, "idempotency_key": "pay-dataset-1"}
	paid := m.buyerAgent.ok("pay_x402_resource", args)
	settlement, _ := paid["settlement"].(map[string]any)
	if paid["outcome"] != "paid" || paid["http_status"] != 200.0 || paid["amount_usdc"] != 50000.0 ||
		paid["amount_usd"] != 0.05 || settlement["success"] != true || paid["body_encoding"] != "text" {
		t.Fatalf("pay_x402_resource = %v", paid)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(paid["body"].(string)), &body); err != nil || body["status"] != "confirmed" {
		t.Fatalf("paid body = %v (%v)", paid["body"], err)
	}
	product, _ := body["product"].(map[string]any)
	if product["url"] != "https://files.example/dataset.csv" {
		t.Errorf("the product URL is not in the paid answer: %v", body)
	}
	sales := m.sales()
	if len(sales) != 1 {
		t.Fatalf("seller's sales = %v, want the one sale", sales)
	}
	sale := sales[0].(map[string]any)
	if sale["sale_id"] != body["sale_id"] || sale["amount_usd"] != 0.05 || sale["payment_method"] != "x402" {
		t.Errorf("sale = %v, paid body = %v", sale, body)
	}
	again := m.buyerAgent.ok("pay_x402_resource", args)
	if again["outcome"] != "paid" || len(m.sales()) != 1 {
		t.Errorf("a retry with the same idempotency key paid again: %v, sales %v", again, m.sales())
	}
}

// A resource on a domain the buyer's owner blocked is refused with the
// sign endpoint's guardrail_blocked, and nothing is paid.
func mcpPayX402ResourceBehindABlockedDomainIsRefused(t *testing.T, h *harness, transport string) {
	m := h.x402Market(t, transport)
	m.r.must(200, "PUT", "/api/v1/owner/bots/"+m.buyer.ID+"/procurement", m.buyer.OwnerToken,
		map[string]any{"blocked_domains": []string{"127.0.0.1"}})
	refusal := m.buyerAgent.refused("pay_x402_resource", map[string]any{"url": m.resource}, "guardrail_blocked")
	if reason, _ := refusal["reason"].(string); !strings.Contains(reason, "127.0.0.1") {
		t.Errorf("refusal = %v, want the blocked domain named", refusal)
	}
	if sales := m.sales(); len(sales) != 0 {
		t.Errorf("a blocked resource was paid: %v", sales)
	}
}

// A payment held for the owner answers its approval id and how to wait,
// not an error; after the owner approves, the same tool with that
// approval_id pays with the signature made at approval.
func mcpHeldX402PaymentIsPaidAfterApproval(t *testing.T, h *harness, transport string) {
	m := h.x402Market(t, transport)
	m.r.guardrails(m.buyer, map[string]any{"approval_mode": "ask_for_everything"})
	res := m.buyerAgent.call("pay_x402_resource", map[string]any{"url": m.resource})
	if res.IsError {
		t.Fatalf("a held payment is an error: %s", texts(res))
	}
	held := object(t, "pay_x402_resource", res.StructuredContent)
	id, _ := held["approval_id"].(float64)
	if held["outcome"] != "awaiting_approval" || id <= 0 || !strings.Contains(held["next_step"].(string), "approval_id") {
		t.Fatalf("held payment = %v", held)
	}
	waiting := m.buyerAgent.ok("pay_x402_resource", map[string]any{"url": m.resource, "approval_id": id})
	if waiting["outcome"] != "awaiting_approval" || len(m.sales()) != 0 {
		t.Fatalf("before the decision: %v", waiting)
	}
	approvalID := strconv.FormatInt(int64(id), 10)
	m.r.must(200, "POST", "/api/v1/owner/signing-requests/"+approvalID+"/approve", m.buyer.OwnerToken, nil)
	m.buyerAgent.refused("pay_x402_resource", map[string]any{"url": m.resource + "?ref=other", "approval_id": id},
		"approval_for_another_resource")
	paid := m.buyerAgent.ok("pay_x402_resource", map[string]any{"url": m.resource, "approval_id": id})
	if paid["outcome"] != "paid" || paid["amount_usdc"] != 50000.0 || len(m.sales()) != 1 {
		t.Fatalf("after approval: %v, sales %v", paid, m.sales())
	}
}

// With the outbound guard on, as in production, a resource on an internal
// address is refused before anything is signed.
func TestMCPPayX402ResourceRefusesInternalAddresses(t *testing.T) {
	h := start(t, "sqlite", testserver.Options{WebhookGuard: true})
	m := h.x402Market(t, "http")
	m.buyerAgent.refused("pay_x402_resource", map[string]any{"url": m.resource}, "destination_refused")
	m.buyerAgent.refused("pay_x402_resource", map[string]any{"url": "http://169.254.169.254/latest/meta-data"}, "destination_refused")
	rails := m.buyerAgent.ok("get_status", nil)["rails"].(map[string]any)
	if balance := rails["processor_wallet"].(map[string]any)["balance_usd"]; balance != 20.0 {
		t.Errorf("processor wallet balance = %v after refusals, want 20 (nothing reserved)", balance)
	}
}

// pay_x402_resource pays a stock-like seller outside botpay in the version
// it asks in: PAYMENT-SIGNATURE echoing its v2 offer, or the standard v1
// X-PAYMENT; the settlement header of that version is decoded.
func mcpPayX402ResourcePaysForeignSellersOfBothVersions(t *testing.T, h *harness, transport string) {
	r := raw{t: t, srv: h.srv}
	buyer := r.walletBot(transport+"-foreign-buyer", 5)
	agent := h.mcpAgent(t, transport, buyer.APIKey)
	for _, version := range []int{2, 1} {
		seller := newForeignSeller(t, version)
		paid := agent.ok("pay_x402_resource", map[string]any{"url": seller.URL + "/report"})
		settlement, _ := paid["settlement"].(map[string]any)
		if paid["outcome"] != "paid" || paid["x402_version"] != float64(version) || paid["amount_usdc"] != 250000.0 ||
			settlement["success"] != true || settlement["payer"] != buyer.Address || seller.paid.Load() != 1 {
			t.Fatalf("v%d: pay_x402_resource = %v", version, paid)
		}
		sent := "payment_signature_header"
		if version == 1 {
			sent = "x_payment_header"
		}
		if paid[sent] == nil {
			t.Fatalf("v%d: the answer does not show the header sent (%s): %v", version, sent, paid)
		}
	}
}

// A held payment to a foreign seller is paid after the owner's approval
// with the header purchase.approved carries for the seller's version.
func mcpHeldPaymentToAForeignSellerIsPaidInItsVersion(t *testing.T, h *harness, transport string) {
	r := raw{t: t, srv: h.srv}
	buyer := r.walletBot(transport+"-held-foreign", 5)
	r.guardrails(buyer, map[string]any{"approval_mode": "ask_for_everything"})
	agent := h.mcpAgent(t, transport, buyer.APIKey)
	for _, version := range []int{2, 1} {
		seller := newForeignSeller(t, version)
		url := seller.URL + "/report"
		held := agent.ok("pay_x402_resource", map[string]any{"url": url})
		id, _ := held["approval_id"].(float64)
		if held["outcome"] != "awaiting_approval" || id <= 0 {
			t.Fatalf("v%d: held = %v", version, held)
		}
		r.must(200, "POST", "/api/v1/owner/signing-requests/"+strconv.FormatInt(int64(id), 10)+"/approve", buyer.OwnerToken, nil)
		paid := agent.ok("pay_x402_resource", map[string]any{"url": url, "approval_id": id})
		if paid["outcome"] != "paid" || paid["x402_version"] != float64(version) || seller.paid.Load() != 1 {
			t.Fatalf("v%d: after approval = %v", version, paid)
		}
	}
	// A bot that reads purchase.approved from its webhook passes the v2
	// header it carries.
	seller := newForeignSeller(t, 2)
	held := agent.ok("pay_x402_resource", map[string]any{"url": seller.URL + "/report"})
	id := strconv.FormatInt(int64(held["approval_id"].(float64)), 10)
	r.must(200, "POST", "/api/v1/owner/signing-requests/"+id+"/approve", buyer.OwnerToken, nil)
	header := lastEvent(t, r, buyer.ID).Data["payment_signature_header"]
	paid := agent.ok("pay_x402_resource", map[string]any{"url": seller.URL + "/report", "payment_signature_header": header})
	if paid["outcome"] != "paid" || paid["x402_version"] != 2.0 || seller.paid.Load() != 1 {
		t.Fatalf("with the event's payment_signature_header: %v", paid)
	}
}
