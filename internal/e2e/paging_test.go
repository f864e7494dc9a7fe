package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
)

// rawGet sends an authenticated GET and returns status, headers and the
// decoded JSON body.
func (h *harness) listGet(t *testing.T, target, token string) (int, http.Header, map[string]json.RawMessage) {
	t.Helper()
	if !strings.HasPrefix(target, "http") {
		target = h.srv.URL + target
	}
	req, _ := http.NewRequestWithContext(h.ctx, http.MethodGet, target, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := h.srv.HTTP.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var body map[string]json.RawMessage
	if len(data) > 0 && data[0] == '{' {
		if err := json.Unmarshal(data, &body); err != nil {
			t.Fatalf("GET %s: %v: %s", target, err, data)
		}
	}
	return resp.StatusCode, resp.Header, body
}

// walk reads a list page by page, limit items a page, and returns the keys
// of its items in order; it checks has_more and next_cursor on the way.
func walk[T any](t *testing.T, limit int, read func(client.ListOptions) (*client.Page[T], error), key func(T) string) []string {
	t.Helper()
	var keys []string
	options := client.ListOptions{Limit: limit}
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("more than 100 pages")
		}
		p, err := read(options)
		if err != nil {
			t.Fatalf("page %d: %v", pages, err)
		}
		if len(p.Items) > limit || p.HasMore != (p.NextCursor != "") || (p.HasMore && len(p.Items) != limit) {
			t.Fatalf("page %d: %d items, has_more %v, next_cursor %q (limit %d)", pages, len(p.Items), p.HasMore, p.NextCursor, limit)
		}
		for _, item := range p.Items {
			keys = append(keys, key(item))
		}
		if !p.HasMore {
			return keys
		}
		options.Cursor = p.NextCursor
	}
}

// wantSameWalk pages a list two items at a time and in one page of 100,
// and wants the same items in the same order, count of them.
func wantSameWalk[T any](t *testing.T, name string, count int, read func(client.ListOptions) (*client.Page[T], error), key func(T) string) {
	t.Helper()
	whole, paged := walk(t, 100, read, key), walk(t, 2, read, key)
	if len(whole) != count || !slices.Equal(whole, paged) {
		t.Errorf("%s: paged by 2 = %v, in one page = %v; want %d items in both", name, paged, whole, count)
	}
}

func TestEveryListPagesWithCursorsAndKeepsItsOrder(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		c := h.claimedBot("pager")
		for range 5 {
			h.fund(c, 100)
		}
		var pageIDs []string
		for i := range 5 {
			page, err := c.bot.CreateCheckoutPage(h.ctx, client.CheckoutPageRequest{Title: "Page " + strconv.Itoa(i), AmountUSD: usd(500)})
			if err != nil {
				t.Fatal(err)
			}
			pageIDs = append(pageIDs, page.CheckoutPageID)
			if _, err := c.bot.CreatePaymentLink(h.ctx, 100, "link "+strconv.Itoa(i), ""); err != nil {
				t.Fatal(err)
			}
			if _, err := c.bot.CreateInvoice(h.ctx, client.InvoiceRequest{CheckoutPageID: page.CheckoutPageID,
				LineItems: []client.LineItemRequest{{Description: "Work", Quantity: "1", UnitPriceUSD: 100}}}); err != nil {
				t.Fatal(err)
			}
			if _, err := h.bots.PayCheckoutSandbox(h.ctx, page.CheckoutPageID, client.BuyerPayment{BuyerEmail: "b@example.com"}); err != nil {
				t.Fatal(err)
			}
		}
		id := func(v int64) string { return strconv.FormatInt(v, 10) }
		// 5 fundings and 5 sales.
		wantSameWalk(t, "transactions", 10, func(l client.ListOptions) (*client.Page[client.Transaction], error) {
			return c.bot.TransactionsPage(h.ctx, l)
		}, func(tr client.Transaction) string { return id(tr.ID) })
		wantSameWalk(t, "checkout pages", 5, func(l client.ListOptions) (*client.Page[client.CheckoutPage], error) {
			return c.bot.CheckoutPagesPage(h.ctx, l)
		}, func(p client.CheckoutPage) string { return p.CheckoutPageID })
		wantSameWalk(t, "payment links", 5, func(l client.ListOptions) (*client.Page[client.PaymentLink], error) {
			return c.bot.PaymentLinksPage(h.ctx, client.LinkPending, l)
		}, func(p client.PaymentLink) string { return p.PaymentLinkID })
		wantSameWalk(t, "invoices", 5, func(l client.ListOptions) (*client.Page[client.Invoice], error) {
			return c.bot.InvoicesPage(h.ctx, client.InvoiceFilter{Status: client.InvoiceDraft}, l)
		}, func(i client.Invoice) string { return i.InvoiceID })
		wantSameWalk(t, "sales", 5, func(l client.ListOptions) (*client.Page[client.Sale], error) {
			return c.bot.SalesPage(h.ctx, client.SaleFilter{}, l)
		}, func(s client.Sale) string { return s.SaleID })
		messages := walk(t, 100, func(l client.ListOptions) (*client.Page[client.PendingMessage], error) {
			return c.bot.MessagesPage(h.ctx, l)
		}, func(m client.PendingMessage) string { return id(m.MessageID) })
		wantSameWalk(t, "messages", len(messages), func(l client.ListOptions) (*client.Page[client.PendingMessage], error) {
			return c.bot.MessagesPage(h.ctx, l)
		}, func(m client.PendingMessage) string { return id(m.MessageID) })
		skills, err := c.bot.Skills(h.ctx, client.SkillsQuery{})
		if err != nil {
			t.Fatal(err)
		}
		wantSameWalk(t, "skills", skills.Total, func(l client.ListOptions) (*client.Page[client.Vendor], error) {
			return c.bot.SkillsPage(h.ctx, client.SkillsQuery{}, l)
		}, func(v client.Vendor) string { return v.Slug })

		// Newest first: the pages come back in reverse order of creation.
		pages := walk(t, 2, func(l client.ListOptions) (*client.Page[client.CheckoutPage], error) {
			return c.bot.CheckoutPagesPage(h.ctx, l)
		}, func(p client.CheckoutPage) string { return p.CheckoutPageID })
		slices.Reverse(pageIDs)
		if !slices.Equal(pages, pageIDs) {
			t.Errorf("checkout pages = %v, want newest first %v", pages, pageIDs)
		}
	})
}

func TestOwnerListsPageAndBotsMineNamesItsNextPageInALinkHeader(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		owner, sess := h.signup(uniqueEmail("fleet"))
		var botIDs []string
		for i := range 5 {
			_, reg := h.register(client.RegisterRequest{BotName: "fleet-" + strconv.Itoa(i), OwnerEmail: sess.Email})
			if _, err := owner.Claim(h.ctx, *reg.ClaimToken); err != nil {
				t.Fatal(err)
			}
			botIDs = append(botIDs, reg.BotID)
		}
		paged := walk(t, 2, func(l client.ListOptions) (*client.Page[client.OwnedBot], error) {
			return owner.BotsMinePage(h.ctx, l)
		}, func(b client.OwnedBot) string { return b.BotID })
		if !slices.Equal(paged, botIDs) {
			t.Errorf("bots paged by 2 = %v, want oldest first %v", paged, botIDs)
		}
		var all []string
		for b, err := range owner.AllBotsMine(h.ctx) {
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, b.BotID)
		}
		if !slices.Equal(all, botIDs) {
			t.Errorf("AllBotsMine = %v, want %v", all, botIDs)
		}

		// The raw answers: a bare array, and a Link to the next page that
		// keeps the limit, none on the last page.
		status, header, _ := h.listGet(t, "/api/v1/bots/mine?limit=3", sess.Token)
		link := header.Get("Link")
		if status != http.StatusOK || !strings.HasPrefix(link, "<"+h.srv.URL+"/api/v1/bots/mine?") || !strings.HasSuffix(link, `>; rel="next"`) {
			t.Fatalf("first page: HTTP %d, Link %q", status, link)
		}
		next, _ := url.Parse(strings.TrimSuffix(strings.TrimPrefix(link, "<"), `>; rel="next"`))
		if next.Query().Get("limit") != "3" || next.Query().Get("cursor") == "" {
			t.Errorf("Link target %s, want limit=3 and a cursor", next)
		}
		status, header, _ = h.listGet(t, next.String(), sess.Token)
		if status != http.StatusOK || header.Get("Link") != "" {
			t.Errorf("last page: HTTP %d, Link %q; want no Link", status, header.Get("Link"))
		}

		for _, route := range []string{"/api/v1/owner/approvals", "/api/v1/owner/signing-requests", "/api/v1/owner/bots/" + botIDs[0] + "/cards"} {
			status, _, body := h.listGet(t, route+"?limit=1", sess.Token)
			if status != http.StatusOK || string(body["has_more"]) != "false" || string(body["next_cursor"]) != "null" {
				t.Errorf("%s: HTTP %d, has_more %s, next_cursor %s; want false and null", route, status, body["has_more"], body["next_cursor"])
			}
		}
	})
}

func TestTheIteratorsFollowEveryPage(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		c := h.claimedBot("iterated")
		for range 101 { // the iterators ask for pages of 100: two pages
			h.fund(c, 1)
		}
		var ids []int64
		for tr, err := range c.bot.AllTransactions(h.ctx) {
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, tr.ID)
		}
		if len(ids) != 101 || !slices.IsSortedFunc(ids, func(a, b int64) int { return int(b - a) }) {
			t.Fatalf("AllTransactions gave %d rows (%v), want 101, newest first", len(ids), ids)
		}
		count := 0
		for _, err := range c.bot.AllTransactions(h.ctx) {
			if err != nil {
				t.Fatal(err)
			}
			if count++; count == 3 {
				break // stopping early is allowed
			}
		}
	})
}

// A cursor is only good for the list, caller and filters it came from;
// anything else, forged or altered, is 400 invalid_cursor, never another
// page or a 500.
func TestForgedOrForeignCursorsAreInvalidCursor(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		alice, bob := h.claimedBot("alice"), h.claimedBot("bob")
		for range 3 {
			h.fund(alice, 100)
			h.fund(bob, 100)
		}
		real := h.nextCursor(t, "/api/v1/bot/wallet/transactions?limit=1", alice.reg.APIKey)
		raw, err := base64.RawURLEncoding.DecodeString(real)
		if err != nil {
			t.Fatalf("cursor %q is not base64url: %v", real, err)
		}
		reencode := func(change func([]byte)) string {
			b := slices.Clone(raw)
			change(b)
			return base64.RawURLEncoding.EncodeToString(b)
		}
		forged := map[string]string{
			"not base64":             "not a cursor!",
			"random bytes":           base64.RawURLEncoding.EncodeToString([]byte("0123456789abcdefghijklmnopq")),
			"position changed":       reencode(func(b []byte) { b[8] ^= 1 }),
			"tag changed":            reencode(func(b []byte) { b[len(b)-1] ^= 1 }),
			"other version":          reencode(func(b []byte) { b[0] = 1 }),
			"truncated":              real[:len(real)-4],
			"padded":                 real + "=",
			"standard base64":        base64.StdEncoding.EncodeToString(raw),
			"NUL":                    "\x00",
			"NUL inside":             real[:5] + "\x00" + real[5:],
			"invalid UTF-8":          "\xff\xfe",
			"too long":               strings.Repeat("A", 4000),
			"empty position":         base64.RawURLEncoding.EncodeToString(append([]byte{raw[0]}, raw[len(raw)-16:]...)),
			"zero position from tag": reencode(func(b []byte) { copy(b[1:9], make([]byte, 8)) }),
		}
		for name, cursor := range forged {
			h.wantInvalidCursor(t, name, "/api/v1/bot/wallet/transactions?cursor="+url.QueryEscape(cursor), alice.reg.APIKey)
		}
		h.wantInvalidCursor(t, "two cursors", "/api/v1/bot/wallet/transactions?cursor="+real+"&cursor="+real, alice.reg.APIKey)
		h.wantInvalidCursor(t, "another bot's cursor", "/api/v1/bot/wallet/transactions?cursor="+real, bob.reg.APIKey)
		h.wantInvalidCursor(t, "another list's cursor", "/api/v1/bot/messages?cursor="+real, alice.reg.APIKey)
		h.wantInvalidCursor(t, "another list's cursor", "/api/v1/bot/sales?cursor="+real, alice.reg.APIKey)
		h.wantInvalidCursor(t, "another owner's list", "/api/v1/bots/mine?cursor="+real, alice.sess.Token)
		h.wantInvalidCursor(t, "skills", "/api/v1/bot/skills?cursor="+real, alice.reg.APIKey)

		// A cursor with other filters: pages of pending links are not pages
		// of all links.
		for range 2 {
			if _, err := alice.bot.CreatePaymentLink(h.ctx, 100, "coffee", ""); err != nil {
				t.Fatal(err)
			}
		}
		pending := h.nextCursor(t, "/api/v1/bot/payments/links?limit=1&status=pending", alice.reg.APIKey)
		h.wantInvalidCursor(t, "other filter", "/api/v1/bot/payments/links?status=completed&cursor="+pending, alice.reg.APIKey)
		h.wantInvalidCursor(t, "filter dropped", "/api/v1/bot/payments/links?cursor="+pending, alice.reg.APIKey)
		if status, _, body := h.listGet(t, "/api/v1/bot/payments/links?limit=1&status=pending&cursor="+pending, alice.reg.APIKey); status != http.StatusOK {
			t.Errorf("the genuine cursor with its filter: HTTP %d %s", status, body["error"])
		}
	})
}

// A cursor hides the position it carries: a list's positions are
// service-wide insertion numbers, and two cursors read in the clear would
// tell a bot how many rows the whole service wrote between them. The
// transactions list shows its positions (the ids), so a cursor after the
// item with id N must not hold N, and two cursors of the same page differ.
func TestCursorsSealTheirPosition(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		alice := h.claimedBot("alice")
		for range 3 {
			h.fund(alice, 100)
		}
		route := "/api/v1/bot/wallet/transactions?limit=1"
		status, _, body := h.listGet(t, route, alice.reg.APIKey)
		var page struct {
			Transactions []struct {
				ID int64 `json:"id"`
			} `json:"transactions"`
		}
		raw, _ := json.Marshal(body)
		if status != http.StatusOK || json.Unmarshal(raw, &page) != nil || len(page.Transactions) != 1 {
			t.Fatalf("%s: HTTP %d %s", route, status, raw)
		}
		first, second := h.nextCursor(t, route, alice.reg.APIKey), h.nextCursor(t, route, alice.reg.APIKey)
		if first == second {
			t.Errorf("two cursors of the same page are equal (%s): the position is not sealed", first)
		}
		decoded, _ := base64.RawURLEncoding.DecodeString(first)
		id := binary.BigEndian.AppendUint64(nil, uint64(page.Transactions[0].ID))
		if bytes.Contains(decoded, id) {
			t.Errorf("cursor %s carries the position %d in the clear", first, page.Transactions[0].ID)
		}
	})
}

// nextCursor reads the next_cursor of a list answer, which must have one.
func (h *harness) nextCursor(t *testing.T, route, token string) string {
	t.Helper()
	status, _, body := h.listGet(t, route, token)
	var cursor *string
	if status != http.StatusOK || json.Unmarshal(body["next_cursor"], &cursor) != nil || cursor == nil {
		t.Fatalf("%s: HTTP %d, next_cursor %s", route, status, body["next_cursor"])
	}
	return *cursor
}

func (h *harness) wantInvalidCursor(t *testing.T, name, route, token string) {
	t.Helper()
	status, _, body := h.listGet(t, route, token)
	if status != http.StatusBadRequest || string(body["error"]) != `"invalid_cursor"` || len(body["message"]) < 10 {
		t.Errorf("%s: HTTP %d %s %s, want 400 invalid_cursor with a message", name, status, body["error"], body["message"])
	}
}

// limit outside 1-100 is 400 validation_error on every list, as before
// paging; offset, which lists never honoured, is refused unless it is 0.
func TestListLimitsAndOffsetAreValidated(t *testing.T) {
	forEachEngine(t, manyBots, func(t *testing.T, h *harness) {
		c := h.claimedBot("limits")
		bot, owner := c.reg.APIKey, c.sess.Token
		routes := map[string]string{"/api/v1/bot/wallet/transactions": bot, "/api/v1/bot/checkout-pages": bot,
			"/api/v1/bot/payments/links": bot, "/api/v1/bot/invoices": bot, "/api/v1/bot/sales": bot, "/api/v1/bot/messages": bot,
			"/api/v1/bot/skills": bot, "/api/v1/bots/mine": owner, "/api/v1/owner/approvals": owner,
			"/api/v1/owner/signing-requests": owner, "/api/v1/owner/bots/" + c.reg.BotID + "/cards": owner}
		for route, token := range routes {
			for _, bad := range []string{"limit=0", "limit=101", "limit=abc", "offset=20"} {
				status, _, body := h.listGet(t, route+"?"+bad, token)
				if status != http.StatusBadRequest || string(body["error"]) != `"validation_error"` {
					t.Errorf("%s?%s: HTTP %d %s, want 400 validation_error", route, bad, status, body["error"])
				}
			}
			for _, good := range []string{"limit=1", "limit=100", "offset=0", "cursor="} {
				if status, _, body := h.listGet(t, route+"?"+good, token); status != http.StatusOK {
					t.Errorf("%s?%s: HTTP %d %s, want 200", route, good, status, body["error"])
				}
			}
		}
	})
}
