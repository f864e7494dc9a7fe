package web

import (
	"context"
	"html/template"
	"net/http"
	"strconv"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/wallets"
)

// A bot's page comes in four sections, each at its own URL and each short
// enough to load and read on its own: overview, spending, earning and settings, with tabs between
// them.

// botSections are the tabs, in order: the path suffix and the label.
var botSections = []struct{ Path, Label string }{
	{"", "Overview"}, {"/spending", "Spending"}, {"/earning", "Earning"}, {"/settings", "Settings"},
}

// BotHead is what every section shows above its content.
type BotHead struct {
	Bot      botpay.Bot
	Status   string
	Section  string // the path suffix of the section shown
	Pending  int    // the bot's requests awaiting the owner's decision
	Overview wallets.BotOverview
}

// Tabs lists the sections for the tab navigation.
func (h BotHead) Tabs() []struct{ Path, Label string } { return botSections }

// ownedBot loads the bot named in the path if the owner owns it.
func (p *Pages) ownedBot(r *http.Request, owner botpay.Owner) (botpay.Bot, error) {
	return p.svc.Dashboard().OwnedBot(r.Context(), owner, r.PathValue("bot_id"))
}

// headOf loads the bot named in the path and what every section shows
// above its content.
func (p *Pages) headOf(ctx context.Context, r *http.Request, owner botpay.Owner, section string) (BotHead, error) {
	b, err := p.ownedBot(r, owner)
	if err != nil {
		return BotHead{}, err
	}
	h := BotHead{Bot: b, Section: section}
	if h.Overview, err = p.svc.Wallets().FullOverview(ctx, b); err != nil {
		return h, err
	}
	h.Status = b.Status(len(h.Overview.ActiveRails()))
	approvals, err := p.allApprovals(ctx, owner)
	for _, a := range approvals {
		if app.ApprovalBotID(a) == b.ID {
			h.Pending++
		}
	}
	return h, err
}

// sectionOf is where an action's notice is shown: the section whose form
// it came from.
var sectionOf = map[string]string{
	"guardrails": "/settings", "procurement": "/settings", "callback": "/settings", "card": "/settings",
	"task": "/spending", "refunded": "/spending", "cancelled": "/earning",
}

// act redirects back to the bot's section an action belongs to, or shows
// the error.
func (p *Pages) act(w http.ResponseWriter, r *http.Request, notice string, err error) {
	if err != nil {
		p.fail(w, r, err)
		return
	}
	done(w, r, "/dashboard/bots/"+r.PathValue("bot_id")+sectionOf[notice], notice)
}

type botOverviewPage struct {
	BotHead
	Available     botpay.Money
	WalletAddress string
	Live          bool // live mode: the processor wallet is funded on chain, not by the owner
	Purchases     []botpay.Purchase
}

func (b botOverviewPage) PageTitle() string { return b.Bot.Name }

func (p *Pages) botOverviewPage(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	ctx := r.Context()
	h, err := p.headOf(ctx, r, owner, "")
	if err != nil {
		p.fail(w, r, err)
		return
	}
	pg := botOverviewPage{BotHead: h, WalletAddress: p.svc.Earning().WalletAddress(ctx, h.Bot.ID), Live: p.live}
	if h.Overview.Wallet != nil {
		pg.Available = h.Overview.Wallet.Wallet.Available()
	}
	if pg.Purchases, err = p.svc.Spending().RecentPurchases(ctx, h.Bot, 5); err != nil {
		p.fail(w, r, err)
		return
	}
	p.renderDash(w, r, http.StatusOK, "bot", pg)
}

type botSpendingPage struct {
	BotHead
	app.BotSpendingView
	Approved, Declined, Categories template.HTML
	MoreTx                         int // how many movements the "show more" link asks for; 0 when all are shown
}

func (b botSpendingPage) PageTitle() string { return b.Bot.Name + " · spending" }

func (p *Pages) botSpendingPage(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	ctx := r.Context()
	h, err := p.headOf(ctx, r, owner, "/spending")
	if err != nil {
		p.fail(w, r, err)
		return
	}
	limit := 20
	if n, err := strconv.Atoi(r.URL.Query().Get("tx")); err == nil && n > 0 && n <= 1000 {
		limit = n
	}
	v, err := p.svc.Dashboard().BotSpending(ctx, h.Bot, limit)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	pg := botSpendingPage{BotHead: h, BotSpendingView: v, Approved: approvedChart(v.Days), Declined: declinedChart(v.Days),
		Categories: categoryChart(v.Categories)}
	if v.MoreLedger {
		pg.MoreTx = limit + 20
	}
	p.renderDash(w, r, http.StatusOK, "bot_spending", pg)
}

type botSettingsPage struct {
	BotHead
	app.BotSettingsView
	Cards []botpay.Card
}

func (b botSettingsPage) PageTitle() string { return b.Bot.Name + " · settings" }

func (p *Pages) botSettingsPage(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	ctx := r.Context()
	h, err := p.headOf(ctx, r, owner, "/settings")
	if err != nil {
		p.fail(w, r, err)
		return
	}
	pg := botSettingsPage{BotHead: h}
	if pg.BotSettingsView, err = p.svc.Dashboard().BotSettings(ctx, owner, h.Bot); err == nil {
		pg.Cards, err = everything(func(pr botpay.PageRequest) (botpay.Page[botpay.Card], error) {
			return p.svc.Spending().Cards(ctx, owner, h.Bot.ID, pr)
		})
	}
	if err != nil {
		p.fail(w, r, err)
		return
	}
	p.renderDash(w, r, http.StatusOK, "bot_settings", pg)
}

// deliveryOutcome says in words how an event reached the bot: a staged
// event waits in the bot's messages until the bot fetches and acknowledges
// it, and then reads so.
func deliveryOutcome(d app.DeliveryRecord) badge {
	switch {
	case !d.Done:
		return badge{"in progress", "pending"}
	case d.Outcome == "staged" && !d.AckedAt.IsZero():
		return badge{"fetched by the bot", "delivered"}
	case d.Outcome == "staged":
		return badge{"waiting for the bot to fetch it", "pending"}
	}
	return badge{d.Outcome, d.Outcome}
}

// badge is a status word and its style class.
type badge struct{ Text, Class string }

type earningPage struct {
	BotHead
	Chart    template.HTML
	Pages    []botpay.CheckoutPage
	Links    []botpay.PaymentLink
	Invoices []botpay.Invoice
	Sales    []botpay.Sale
	BaseURL  string
}

func (e earningPage) PageTitle() string { return e.Bot.Name + " · earning" }

func (p *Pages) earningPage(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	ctx := r.Context()
	h, err := p.headOf(ctx, r, owner, "/earning")
	if err != nil {
		p.fail(w, r, err)
		return
	}
	b := h.Bot
	pg := earningPage{BotHead: h, BaseURL: p.svc.BaseURL()}
	steps := []func() error{
		func() error {
			days, err := p.svc.Dashboard().EarningByDay(ctx, b)
			pg.Chart = earningChart(days)
			return err
		},
		func() (err error) {
			pg.Pages, err = everything(func(pr botpay.PageRequest) (botpay.Page[botpay.CheckoutPage], error) {
				return p.svc.Earning().CheckoutPages(ctx, b, pr)
			})
			return
		},
		func() (err error) {
			pg.Links, err = firstItems(50, func(pr botpay.PageRequest) (botpay.Page[botpay.PaymentLink], error) {
				return p.svc.Earning().PaymentLinks(ctx, b, "", pr)
			})
			return
		},
		func() (err error) {
			pg.Invoices, err = firstItems(50, func(pr botpay.PageRequest) (botpay.Page[botpay.Invoice], error) {
				return p.svc.Earning().Invoices(ctx, b, botpay.InvoiceFilter{}, pr)
			})
			return
		},
		func() (err error) {
			pg.Sales, err = firstItems(50, func(pr botpay.PageRequest) (botpay.Page[botpay.Sale], error) {
				return p.svc.Earning().Sales(ctx, b, botpay.SaleFilter{}, pr)
			})
			return
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			p.fail(w, r, err)
			return
		}
	}
	p.renderDash(w, r, http.StatusOK, "earning", pg)
}

// refundPurchase records the merchant's refund of an approved purchase:
// the whole remainder unless an amount is given.
func (p *Pages) refundPurchase(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	f := newForm(r)
	req := botpay.RefundRequest{Amount: f.optionalUSD("amount_usd"), Reason: f.str("reason")}
	if req.Reason == "" {
		f.p["reason"] = "is required"
	}
	if err := f.err(); err != nil {
		p.fail(w, r, err)
		return
	}
	_, err := p.svc.Earning().RefundPurchase(r.Context(), owner, r.PathValue("confirmation_id"), req)
	p.act(w, r, "refunded", err)
}
