package client

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// TransactionsPage reads one page of the ledger, newest first (403
// wallet_not_active before the claim).
func (c *Client) TransactionsPage(ctx context.Context, l ListOptions, opts ...CallOption) (*Page[Transaction], error) {
	return listCall[Transaction](ctx, c.t, c.apiKey, "/api/v1/bot/wallet/transactions", "transactions", nil, l, opts)
}

// AllTransactions iterates over the whole ledger, newest first.
func (c *Client) AllTransactions(ctx context.Context, opts ...CallOption) iter.Seq2[Transaction, error] {
	return iterate(func(l ListOptions) (*Page[Transaction], error) { return c.TransactionsPage(ctx, l, opts...) })
}

// CheckoutPagesPage reads one page of the bot's checkout pages, newest
// first.
func (c *Client) CheckoutPagesPage(ctx context.Context, l ListOptions, opts ...CallOption) (*Page[CheckoutPage], error) {
	return listCall[CheckoutPage](ctx, c.t, c.apiKey, "/api/v1/bot/checkout-pages", "checkout_pages", nil, l, opts)
}

// AllCheckoutPages iterates over every checkout page, newest first.
func (c *Client) AllCheckoutPages(ctx context.Context, opts ...CallOption) iter.Seq2[CheckoutPage, error] {
	return iterate(func(l ListOptions) (*Page[CheckoutPage], error) { return c.CheckoutPagesPage(ctx, l, opts...) })
}

// PaymentLinksPage reads one page of payment links, newest first; status
// ("" for all) is LinkPending, LinkCompleted or LinkExpired.
func (c *Client) PaymentLinksPage(ctx context.Context, status string, l ListOptions, opts ...CallOption) (*Page[PaymentLink], error) {
	return listCall[PaymentLink](ctx, c.t, c.apiKey, "/api/v1/bot/payments/links", "payment_links",
		url.Values{"status": {status}}, l, opts)
}

// AllPaymentLinks iterates over every payment link with status ("" for
// all), newest first.
func (c *Client) AllPaymentLinks(ctx context.Context, status string, opts ...CallOption) iter.Seq2[PaymentLink, error] {
	return iterate(func(l ListOptions) (*Page[PaymentLink], error) { return c.PaymentLinksPage(ctx, status, l, opts...) })
}

func (f InvoiceFilter) values() url.Values {
	return url.Values{"status": {f.Status}, "checkout_page_id": {f.CheckoutPageID}}
}

// InvoicesPage reads one page of invoices matching f (its Limit is not
// used: l.Limit is), newest first.
func (c *Client) InvoicesPage(ctx context.Context, f InvoiceFilter, l ListOptions, opts ...CallOption) (*Page[Invoice], error) {
	return listCall[Invoice](ctx, c.t, c.apiKey, "/api/v1/bot/invoices", "invoices", f.values(), l, opts)
}

// AllInvoices iterates over every invoice matching f, newest first.
func (c *Client) AllInvoices(ctx context.Context, f InvoiceFilter, opts ...CallOption) iter.Seq2[Invoice, error] {
	return iterate(func(l ListOptions) (*Page[Invoice], error) { return c.InvoicesPage(ctx, f, l, opts...) })
}

func (f SaleFilter) values() url.Values {
	return url.Values{"checkout_page_id": {f.CheckoutPageID}, "status": {f.Status}, "payment_method": {f.PaymentMethod}}
}

// SalesPage reads one page of sales matching f (its Limit is not used:
// l.Limit is), newest first.
func (c *Client) SalesPage(ctx context.Context, f SaleFilter, l ListOptions, opts ...CallOption) (*Page[Sale], error) {
	return listCall[Sale](ctx, c.t, c.apiKey, "/api/v1/bot/sales", "sales", f.values(), l, opts)
}

// AllSales iterates over every sale matching f, newest first.
func (c *Client) AllSales(ctx context.Context, f SaleFilter, opts ...CallOption) iter.Seq2[Sale, error] {
	return iterate(func(l ListOptions) (*Page[Sale], error) { return c.SalesPage(ctx, f, l, opts...) })
}

// MessagesPage reads one page of staged, unacknowledged messages, oldest
// first. Acknowledging messages between pages does not disturb paging.
func (c *Client) MessagesPage(ctx context.Context, l ListOptions, opts ...CallOption) (*Page[PendingMessage], error) {
	return listCall[PendingMessage](ctx, c.t, c.apiKey, "/api/v1/bot/messages", "messages", nil, l, opts)
}

// AllMessages iterates over every staged, unacknowledged message, oldest
// first.
func (c *Client) AllMessages(ctx context.Context, opts ...CallOption) iter.Seq2[PendingMessage, error] {
	return iterate(func(l ListOptions) (*Page[PendingMessage], error) { return c.MessagesPage(ctx, l, opts...) })
}

// SkillsPage reads one page of the vendor catalogue matching q; Total
// counts every match.
func (c *Client) SkillsPage(ctx context.Context, q SkillsQuery, l ListOptions, opts ...CallOption) (*Page[Vendor], error) {
	return listCall[Vendor](ctx, c.t, c.apiKey, "/api/v1/bot/skills", "vendors", q.values(), l, opts)
}

// AllSkills iterates over every vendor matching q, most agent-friendly
// first.
func (c *Client) AllSkills(ctx context.Context, q SkillsQuery, opts ...CallOption) iter.Seq2[Vendor, error] {
	return iterate(func(l ListOptions) (*Page[Vendor], error) { return c.SkillsPage(ctx, q, l, opts...) })
}

// BotsMinePage reads one page of the owner's bots, oldest first. The
// answer is a bare array; the next page is named in its Link header.
func (o *OwnerClient) BotsMinePage(ctx context.Context, l ListOptions, opts ...CallOption) (*Page[OwnedBot], error) {
	var items []OwnedBot
	var header http.Header
	err := o.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bots/mine", query: l.query(nil), token: o.token,
		out: &items, header: &header}, opts)
	if err != nil {
		return nil, err
	}
	next := nextCursorOfLink(header.Values("Link"))
	return &Page[OwnedBot]{Items: items, HasMore: next != "", NextCursor: next}, nil
}

// AllBotsMine iterates over every bot of the owner, oldest first.
func (o *OwnerClient) AllBotsMine(ctx context.Context, opts ...CallOption) iter.Seq2[OwnedBot, error] {
	return iterate(func(l ListOptions) (*Page[OwnedBot], error) { return o.BotsMinePage(ctx, l, opts...) })
}

// nextCursorOfLink finds the cursor of the rel="next" target among Link
// header values (RFC 8288), "" when there is none.
func nextCursorOfLink(values []string) string {
	for _, value := range values {
		for _, link := range strings.Split(value, ",") {
			target, params, ok := strings.Cut(strings.TrimSpace(link), ";")
			if !ok || !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
				continue
			}
			if !isNextRel(params) {
				continue
			}
			u, err := url.Parse(target[1 : len(target)-1])
			if err == nil {
				return u.Query().Get("cursor")
			}
		}
	}
	return ""
}

func isNextRel(params string) bool {
	for _, p := range strings.Split(params, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(name, "rel") && slices.ContainsFunc(strings.Fields(strings.Trim(value, `"`)), isNext) {
			return true
		}
	}
	return false
}

func isNext(rel string) bool { return strings.EqualFold(rel, "next") }

// CardsPage reads one page of a bot's cards, oldest first.
func (o *OwnerClient) CardsPage(ctx context.Context, botID string, l ListOptions, opts ...CallOption) (*Page[Card], error) {
	return listCall[Card](ctx, o.t, o.token, botPath(botID, "/cards"), "cards", nil, l, opts)
}

// AllCards iterates over every card of a bot, oldest first.
func (o *OwnerClient) AllCards(ctx context.Context, botID string, opts ...CallOption) iter.Seq2[Card, error] {
	return iterate(func(l ListOptions) (*Page[Card], error) { return o.CardsPage(ctx, botID, l, opts...) })
}

// ApprovalsPage reads one page of what awaits the owner's decision, held
// purchases and held signing requests in the order they were made.
func (o *OwnerClient) ApprovalsPage(ctx context.Context, l ListOptions, opts ...CallOption) (*Page[Approval], error) {
	return listCall[Approval](ctx, o.t, o.token, "/api/v1/owner/approvals", "approvals", nil, l, opts)
}

// AllApprovals iterates over everything that awaits the owner's decision.
func (o *OwnerClient) AllApprovals(ctx context.Context, opts ...CallOption) iter.Seq2[Approval, error] {
	return iterate(func(l ListOptions) (*Page[Approval], error) { return o.ApprovalsPage(ctx, l, opts...) })
}

// SigningRequestsPage reads one page of held signing requests, oldest
// first.
func (o *OwnerClient) SigningRequestsPage(ctx context.Context, l ListOptions, opts ...CallOption) (*Page[SigningApproval], error) {
	return listCall[SigningApproval](ctx, o.t, o.token, "/api/v1/owner/signing-requests", "approvals", nil, l, opts)
}

// AllSigningRequests iterates over every held signing request.
func (o *OwnerClient) AllSigningRequests(ctx context.Context, opts ...CallOption) iter.Seq2[SigningApproval, error] {
	return iterate(func(l ListOptions) (*Page[SigningApproval], error) { return o.SigningRequestsPage(ctx, l, opts...) })
}
