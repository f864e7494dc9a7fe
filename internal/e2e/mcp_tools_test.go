package e2e

import (
	"slices"
	"sort"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/mcp"
)

// The eighteen tools of the contract, by name.
var wantTools = []string{"get_status", "check_wallet", "list_transactions", "get_spending_rules", "request_topup",
	"checkout", "get_checkout_status", "sign_x402_payment", "pay_x402_resource", "create_checkout_page",
	"create_payment_link", "create_invoice", "send_invoice", "list_sales", "list_messages", "ack_messages",
	"search_vendors", "get_vendor_skill"}

// tools/list shows exactly the eighteen tools over both transports, each
// with input and output schemas and hints: read-only tools say so, the
// ones that spend say they are destructive.
func mcpListsTheEighteenTools(t *testing.T, h *harness, transport string) {
	c := h.claimedBot(transport + "-lister")
	a := h.mcpAgent(t, transport, c.reg.APIKey)
	res, err := a.session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]*sdk.Tool{}
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		byName[tool.Name] = tool
		checkToolDescription(t, tool)
	}
	sort.Strings(names)
	want := slices.Clone(wantTools)
	sort.Strings(want)
	if !slices.Equal(names, want) {
		t.Fatalf("tools = %v\nwant    %v", names, want)
	}
	for _, name := range []string{"get_status", "check_wallet", "list_sales", "search_vendors", "get_checkout_status"} {
		if !byName[name].Annotations.ReadOnlyHint {
			t.Errorf("%s is not marked read-only", name)
		}
	}
	for _, name := range []string{"checkout", "sign_x402_payment", "pay_x402_resource"} {
		an := byName[name].Annotations
		if an.ReadOnlyHint || an.DestructiveHint == nil || !*an.DestructiveHint {
			t.Errorf("%s is not marked destructive: %+v", name, an)
		}
	}
	// Over /mcp the service names its own limit; botpay mcp, a process
	// beside a service elsewhere, does not know it and says how it shows.
	wantLimit := map[string]string{"http": "At most 40 checkouts per hour.", "stdio": "past the limit the refusal is rate_limited"}[transport]
	if d := byName["checkout"].Description; !strings.Contains(d, wantLimit) || strings.Contains(d, "{") {
		t.Errorf("checkout over %s describes its limit as %q, want %q", transport, d, wantLimit)
	}
	if an := byName["create_checkout_page"].Annotations; an.DestructiveHint == nil || *an.DestructiveHint {
		t.Errorf("create_checkout_page should say it destroys nothing: %+v", an)
	}
}

func checkToolDescription(t *testing.T, tool *sdk.Tool) {
	t.Helper()
	if len(tool.Description) < 120 || tool.Annotations == nil || tool.Annotations.Title == "" {
		t.Errorf("%s: description %q or annotations %+v too thin for a model", tool.Name, tool.Description, tool.Annotations)
	}
	for what, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
		if m, ok := schema.(map[string]any); !ok || m["type"] != "object" {
			t.Errorf("%s: %s schema %v is not an object schema", tool.Name, what, schema)
		}
	}
}

func TestToolNamesAreTheContractsEighteen(t *testing.T) {
	got := mcp.ToolNames()
	if len(got) != 18 || !slices.Equal(sorted(got), sorted(wantTools)) {
		t.Fatalf("tools = %v", got)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}

// Each tool answers exactly what its endpoint answers to the same bot in
// the same state. Tools that change something are compared through the
// idempotency layer: the endpoint called with the tool's idempotency key
// and the same body replays the tool's answer, which holds only when the
// tool made that very request. pay_x402_resource has no single endpoint;
// TestMCPPayX402ResourcePaysAnotherBotsCheckoutPage covers it.
func mcpToolsAnswerWhatTheirEndpointsAnswer(t *testing.T, h *harness, transport string) {
	s := h.shopper(transport+"-shopper", client.Dollars(100, 0), nil)
	if _, err := s.owner.CreateProcessorWallet(h.ctx, s.reg.BotID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.owner.Fund(h.ctx, s.reg.BotID, client.Dollars(20, 0), "processor_wallet"); err != nil {
		t.Fatal(err)
	}
	a := h.mcpAgent(t, transport, s.reg.APIKey)
	covered := compareWalletTools(t, a)
	covered = append(covered, compareSpendingTools(t, a)...)
	covered = append(covered, compareEarningTools(t, a)...)
	covered = append(covered, compareMessageAndVendorTools(t, a)...)
	covered = append(covered, "pay_x402_resource")
	if !slices.Equal(sorted(covered), sorted(wantTools)) {
		t.Errorf("compared %v, want every tool", sorted(covered))
	}
}

// same calls tool, then the endpoint, and compares the answers.
func (a agent) same(tool string, args map[string]any, method, path string, body any, headers ...string) map[string]any {
	a.t.Helper()
	got := a.ok(tool, args)
	status, want := a.endpoint(method, path, body, headers...)
	if status < 200 || status > 299 {
		a.t.Fatalf("%s %s answered %d %v", method, path, status, want)
	}
	sameAnswer(a.t, tool, any(got), want)
	return got
}

func compareWalletTools(t *testing.T, a agent) []string {
	a.same("get_status", nil, "GET", "/api/v1/bot/status", nil)
	a.same("check_wallet", nil, "GET", "/api/v1/bot/wallet/check", nil)
	a.same("list_transactions", map[string]any{"limit": 5}, "GET", "/api/v1/bot/wallet/transactions?limit=5", nil)
	a.same("get_spending_rules", nil, "GET", "/api/v1/bot/wallet/spending", nil)
	got := a.same("request_topup", map[string]any{"amount_usd": 20, "reason": "printer paper", "idempotency_key": "topup-1"},
		"POST", "/api/v1/bot/wallet/topup-request", map[string]any{"amount_usd": 20, "reason": "printer paper"}, "Idempotency-Key", "topup-1")
	if got["status"] != "sent" {
		t.Errorf("request_topup = %v", got)
	}
	return []string{"get_status", "check_wallet", "list_transactions", "get_spending_rules", "request_topup"}
}

func compareSpendingTools(t *testing.T, a agent) []string {
	buy := map[string]any{"profile_index": 1, "merchant_name": "Acme", "merchant_url": "https://shop.acme.com/widgets",
		"item_name": "Widget", "amount_cents": 1250, "category": "retail"}
	got := a.same("checkout", with(buy, "idempotency_key", "buy-1"), "POST", "/api/v1/bot/merchant/checkout", buy,
		"Idempotency-Key", "buy-1")
	if got["approved"] != true || got["missing_digits"] != realDigits {
		t.Fatalf("checkout = %v", got)
	}
	id := got["confirmation_id"].(string)
	a.same("get_checkout_status", map[string]any{"confirmation_id": id}, "GET", "/api/v1/bot/merchant/checkout/status?confirmation_id="+id, nil)
	sign := map[string]any{"resource_url": "https://data.example/report", "amount_usdc": 1500000,
		"recipient_address": "0x1111111111111111111111111111111111111111"}
	signed := a.same("sign_x402_payment", with(sign, "idempotency_key", "sign-1"), "POST", "/api/v1/processor-wallet/bot/sign", sign,
		"Idempotency-Key", "sign-1")
	if signed["x_payment_header"] == nil {
		t.Fatalf("sign_x402_payment = %v", signed)
	}
	return []string{"checkout", "get_checkout_status", "sign_x402_payment"}
}

func compareEarningTools(t *testing.T, a agent) []string {
	page := map[string]any{"title": "Sticker pack", "amount_usd": 12.5, "description": "Ten stickers"}
	p := a.same("create_checkout_page", with(page, "idempotency_key", "page-1"), "POST", "/api/v1/bot/checkout-pages/create", page,
		"Idempotency-Key", "page-1")
	pageID := p["checkout_page_id"].(string)
	link := map[string]any{"amount_usd": 5, "description": "Coffee"}
	a.same("create_payment_link", with(link, "idempotency_key", "link-1"), "POST", "/api/v1/bot/payments/create-link", link,
		"Idempotency-Key", "link-1")
	invoice := map[string]any{"checkout_page_id": pageID, "recipient_email": "ap@example.com", "tax_usd": 1.5,
		"line_items": []any{map[string]any{"description": "Design", "quantity": 2, "unit_price_usd": 100}}}
	inv := a.same("create_invoice", with(invoice, "idempotency_key", "inv-1"), "POST", "/api/v1/bot/invoices/create", invoice,
		"Idempotency-Key", "inv-1")
	invID := inv["invoice_id"].(string)
	sent := a.same("send_invoice", map[string]any{"invoice_id": invID, "idempotency_key": "send-1"}, "POST",
		"/api/v1/bot/invoices/"+invID+"/send", nil, "Idempotency-Key", "send-1")
	if sent["status"] != "sent" {
		t.Errorf("send_invoice = %v", sent)
	}
	a.raw.must(200, "POST", "/api/v1/checkout/"+pageID+"/pay/sandbox", "", map[string]any{"buyer_email": "bea@example.com"})
	sales := a.same("list_sales", map[string]any{"checkout_page_id": pageID}, "GET", "/api/v1/bot/sales?checkout_page_id="+pageID, nil)
	if n := len(sales["sales"].([]any)); n != 1 {
		t.Errorf("list_sales shows %d sales, want 1", n)
	}
	return []string{"create_checkout_page", "create_payment_link", "create_invoice", "send_invoice", "list_sales"}
}

func compareMessageAndVendorTools(t *testing.T, a agent) []string {
	msgs := a.same("list_messages", nil, "GET", "/api/v1/bot/messages", nil)
	list := msgs["messages"].([]any)
	if len(list) == 0 {
		t.Fatal("no pending messages to acknowledge")
	}
	first := list[0].(map[string]any)["message_id"]
	acked := a.ok("ack_messages", map[string]any{"message_ids": []any{first}})
	sameAnswer(t, "ack_messages", acked["acknowledged"], []any{first})
	// Acknowledged once: tool and endpoint now both find nothing to acknowledge.
	a.same("ack_messages", map[string]any{"message_ids": []any{first}}, "POST", "/api/v1/bot/messages/ack",
		map[string]any{"message_ids": []any{first}})
	vendors := a.same("search_vendors", map[string]any{"category": "office"}, "GET", "/api/v1/bot/skills?category=office", nil)
	slug := vendors["vendors"].([]any)[0].(map[string]any)["slug"].(string)
	skill := a.ok("get_vendor_skill", map[string]any{"vendor": slug})
	file := a.raw.do("GET", "/api/v1/bot/skills/"+slug, a.key, nil)
	if skill["markdown"] != string(file.Body) || skill["version"] != file.Header.Get("X-Skill-Version") ||
		skill["maturity"] != file.Header.Get("X-Skill-Maturity") {
		t.Errorf("get_vendor_skill = %v, the endpoint answered %s (version %s)", skill, file.Body, file.Header.Get("X-Skill-Version"))
	}
	return []string{"list_messages", "ack_messages", "search_vendors", "get_vendor_skill"}
}

// with is args plus one more field.
func with(args map[string]any, key string, value any) map[string]any {
	out := map[string]any{key: value}
	for k, v := range args {
		out[k] = v
	}
	return out
}
