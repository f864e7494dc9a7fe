package web

import (
	"html/template"
	"net/http"
	"strconv"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
)

type botPage struct {
	Bot          botpay.Bot
	Status       string
	Overview     app.BotOverview
	Available    botpay.Money
	Guardrails   botpay.Guardrails
	Procurement  botpay.Procurement
	Cards        []botpay.Card
	Rail5Cards   []botpay.Rail5Card
	Transactions []botpay.Transaction
	MoreTx       int // limit for the next page of transactions; 0 when all are shown
	Purchases    []botpay.Purchase
	Topups       []botpay.TopupRequest
	Tasks        []botpay.Task
	Messages     []botpay.PendingMessage
	Deliveries   []botpay.DeliveryRecord
	Chart        template.HTML
	// WalletAddress is the processor wallet address (app.WalletAddress);
	// empty while the bot has none.
	WalletAddress string
	// Live hides owner funding of the processor wallet, which live mode
	// refuses: its balance is what its address holds on chain.
	Live bool
	// Pending counts the bot's requests in the approvals queue, of every
	// kind (held purchases and held x402 signing requests).
	Pending int
}

func (b botPage) PageTitle() string { return b.Bot.Name }

// ownedBot loads the bot named in the path if the owner owns it.
func (p *Pages) ownedBot(r *http.Request, owner botpay.Owner) (botpay.Bot, error) {
	return p.svc.OwnedBot(r.Context(), owner, r.PathValue("bot_id"))
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
	if _, err := p.svc.RefundPurchase(r.Context(), owner, r.PathValue("confirmation_id"), req); err != nil {
		p.fail(w, r, err)
		return
	}
	done(w, r, "/dashboard/bots/"+r.PathValue("bot_id"), "refunded")
}

func (p *Pages) botPage(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	ctx := r.Context()
	b, err := p.ownedBot(r, owner)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	limit := 20
	if n, err := strconv.Atoi(r.URL.Query().Get("tx")); err == nil && n > 0 && n <= 1000 {
		limit = n
	}
	pg := botPage{Bot: b, WalletAddress: p.svc.WalletAddress(ctx, b.ID), Live: p.live}
	steps := []func() error{
		func() (err error) { pg.Overview, err = p.svc.Overview(ctx, b, true); return },
		func() (err error) { pg.Guardrails, err = p.svc.OwnedGuardrails(ctx, owner, b.ID); return },
		func() (err error) { pg.Procurement, err = p.svc.Procurement(ctx, owner, b.ID); return },
		func() (err error) {
			pg.Cards, err = everything(func(pr botpay.PageRequest) (botpay.Page[botpay.Card], error) {
				return p.svc.Cards(ctx, owner, b.ID, pr)
			})
			return
		},
		func() (err error) { pg.Rail5Cards, err = p.svc.Rail5Cards(ctx, owner, b.ID); return },
		func() (err error) {
			pg.Transactions, err = firstItems(limit+1, func(pr botpay.PageRequest) (botpay.Page[botpay.Transaction], error) {
				return p.svc.Transactions(ctx, b, pr)
			})
			return
		},
		func() (err error) { pg.Purchases, err = p.svc.RecentPurchases(ctx, b, 20); return },
		func() (err error) { pg.Topups, err = p.svc.RecentTopupRequests(ctx, b, 10); return },
		func() (err error) { pg.Tasks, err = p.svc.RecentTasks(ctx, b, 10); return },
		func() (err error) {
			pg.Messages, err = firstItems(20, func(pr botpay.PageRequest) (botpay.Page[botpay.PendingMessage], error) {
				return p.svc.PendingMessages(ctx, b, pr)
			})
			return
		},
		func() (err error) { pg.Deliveries, err = p.svc.RecentDeliveries(ctx, b, 20); return },
		func() error {
			approvals, err := p.allApprovals(ctx, owner)
			for _, a := range approvals {
				if approvalBotID(a) == b.ID {
					pg.Pending++
				}
			}
			return err
		},
		func() error {
			days, err := p.svc.SpendingByDay(ctx, b, 30)
			pg.Chart = spendingChart(days)
			return err
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			p.fail(w, r, err)
			return
		}
	}
	if len(pg.Transactions) > limit {
		pg.Transactions, pg.MoreTx = pg.Transactions[:limit], limit+20
	}
	active := len(pg.Overview.ActiveRails())
	pg.Status = b.Status(active)
	if pg.Overview.Wallet != nil {
		pg.Available = pg.Overview.Wallet.Wallet.Balance - pg.Overview.Wallet.Wallet.Held
	}
	p.renderDash(w, r, http.StatusOK, "bot", pg)
}

// act runs one bot action and redirects back to the bot page.
func (p *Pages) act(w http.ResponseWriter, r *http.Request, notice string, err error) {
	if err != nil {
		p.fail(w, r, err)
		return
	}
	done(w, r, "/dashboard/bots/"+r.PathValue("bot_id"), notice)
}

func (p *Pages) fund(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	f := newForm(r)
	amount := f.usd("amount_usd")
	if err := f.err(); err != nil {
		p.fail(w, r, err)
		return
	}
	rail := f.str("rail")
	if rail == "" {
		rail = botpay.RailCardWallet
	}
	_, err := p.svc.Fund(r.Context(), owner, r.PathValue("bot_id"), amount, rail)
	p.act(w, r, "funded", err)
}

func (p *Pages) freeze(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	frozen := r.PostFormValue("frozen") == "true"
	_, err := p.svc.Freeze(r.Context(), owner, r.PathValue("bot_id"), frozen)
	notice := "unfrozen"
	if frozen {
		notice = "frozen"
	}
	p.act(w, r, notice, err)
}

func (p *Pages) saveGuardrails(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	f := newForm(r)
	mode := f.str("approval_mode")
	per, daily, monthly := f.usd("per_transaction_usd"), f.usd("daily_usd"), f.usd("monthly_usd")
	above := f.optionalUSD("ask_approval_above_usd")
	recurring := f.checked("recurring_allowed")
	notes := f.r.PostFormValue("notes")
	notesPtr := &notes
	if notes == "" {
		notesPtr = nil
	}
	approved, blocked := f.list("approved_categories"), f.list("blocked_categories")
	if err := f.err(); err != nil {
		p.fail(w, r, err)
		return
	}
	_, err := p.svc.SetGuardrails(r.Context(), owner, r.PathValue("bot_id"), app.GuardrailsChange{
		ApprovalMode: &mode, PerTransaction: &per, Daily: &daily, Monthly: &monthly, AskApprovalAbove: &above,
		RecurringAllowed: &recurring, Notes: &notesPtr, ApprovedCategories: &approved, BlockedCategories: &blocked})
	p.act(w, r, "guardrails", err)
}

func (p *Pages) saveProcurement(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	f := newForm(r)
	ad, bd, am, bm := f.list("allowed_domains"), f.list("blocked_domains"), f.list("allowed_merchants"), f.list("blocked_merchants")
	ar := f.list("allowed_recipients")
	_, err := p.svc.SetProcurement(r.Context(), owner, r.PathValue("bot_id"), app.ProcurementChange{
		AllowedDomains: &ad, BlockedDomains: &bd, AllowedMerchants: &am, BlockedMerchants: &bm, AllowedRecipients: &ar})
	p.act(w, r, "procurement", err)
}

func (p *Pages) saveCallback(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	_, err := p.svc.UpdateCallbackURL(r.Context(), owner.ID, r.PathValue("bot_id"), newForm(r).str("callback_url"))
	p.act(w, r, "callback", err)
}

func (p *Pages) createTask(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	f := newForm(r)
	in := app.NewTaskInput{BotID: r.PathValue("bot_id"), MerchantName: f.str("merchant_name"), MerchantURL: f.str("merchant_url"),
		ItemName: f.str("item_name"), Category: f.str("category"), ProfileIndex: f.optionalInt("profile_index")}
	if f.str("amount_usd") != "" {
		cents := int(f.usd("amount_usd"))
		in.AmountCents = &cents
	}
	if err := f.err(); err != nil {
		p.fail(w, r, err)
		return
	}
	_, err := p.svc.CreateTask(r.Context(), owner, in)
	p.act(w, r, "task", err)
}

func (p *Pages) setCardStatus(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	_, err := p.svc.SetCardStatus(r.Context(), owner, r.PathValue("bot_id"), r.PathValue("card_id"), r.PostFormValue("status"))
	p.act(w, r, "card", err)
}

type earningPage struct {
	Bot      botpay.Bot
	Pages    []botpay.CheckoutPage
	Links    []botpay.PaymentLink
	Invoices []botpay.Invoice
	Sales    []botpay.Sale
	BaseURL  string
}

func (e earningPage) PageTitle() string { return e.Bot.Name + " · earning" }

func (p *Pages) earningPage(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	ctx := r.Context()
	b, err := p.ownedBot(r, owner)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	pg := earningPage{Bot: b, BaseURL: p.svc.BaseURL()}
	steps := []func() error{
		func() (err error) {
			pg.Pages, err = everything(func(pr botpay.PageRequest) (botpay.Page[botpay.CheckoutPage], error) {
				return p.svc.CheckoutPages(ctx, b, pr)
			})
			return
		},
		func() (err error) {
			pg.Links, err = firstItems(50, func(pr botpay.PageRequest) (botpay.Page[botpay.PaymentLink], error) {
				return p.svc.PaymentLinks(ctx, b, "", pr)
			})
			return
		},
		func() (err error) {
			pg.Invoices, err = firstItems(50, func(pr botpay.PageRequest) (botpay.Page[botpay.Invoice], error) {
				return p.svc.Invoices(ctx, b, botpay.InvoiceFilter{}, pr)
			})
			return
		},
		func() (err error) {
			pg.Sales, err = firstItems(50, func(pr botpay.PageRequest) (botpay.Page[botpay.Sale], error) {
				return p.svc.Sales(ctx, b, botpay.SaleFilter{}, pr)
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

func (p *Pages) cancelInvoice(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	_, err := p.svc.CancelInvoice(r.Context(), owner, r.PathValue("invoice_id"))
	if err != nil {
		p.fail(w, r, err)
		return
	}
	done(w, r, "/dashboard/bots/"+r.PathValue("bot_id")+"/earning", "cancelled")
}

// createCard registers a card from the short form: one real profile (1)
// and as many decoy profiles as asked, each with the same allowance.
func (p *Pages) createCard(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	f := newForm(r)
	allowance := f.usd("allowance_usd")
	duration := f.str("allowance_duration")
	decoys := 0
	if n := f.optionalInt("decoy_profiles"); n != nil {
		decoys = *n
	}
	if decoys < 0 || decoys >= app.MaxProfiles {
		f.p["decoy_profiles"] = "must be from 0 to " + itoa(app.MaxProfiles-1)
	}
	if err := f.err(); err != nil {
		p.fail(w, r, err)
		return
	}
	profiles := make([]botpay.PaymentProfile, 0, decoys+1)
	for i := 1; i <= decoys+1; i++ {
		profiles = append(profiles, botpay.PaymentProfile{Index: i, AllowanceDuration: duration, Allowance: allowance})
	}
	_, err := p.svc.CreateCard(r.Context(), owner, app.NewCardInput{BotID: r.PathValue("bot_id"), CardName: f.str("card_name"),
		MissingDigits: f.str("missing_digits"), ExpiryMonth: f.str("expiry_month"), ExpiryYear: f.str("expiry_year"),
		RealProfileIndex: 1, Profiles: profiles})
	p.act(w, r, "card", err)
}

// createRail5Card hands a card to the bot as an encrypted card file, through
// the same use case as POST /api/v1/owner/bots/{bot_id}/rail5-cards.
func (p *Pages) createRail5Card(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	f := newForm(r)
	_, err := p.svc.CreateRail5Card(r.Context(), owner, app.Rail5CardInput{BotID: r.PathValue("bot_id"),
		CardName: f.str("r5_card_name"), Number: f.str("r5_number"), CVV: f.str("r5_cvv"),
		ExpiryMonth: f.str("r5_expiry_month"), ExpiryYear: f.str("r5_expiry_year"), HolderName: f.str("r5_holder_name")})
	p.act(w, r, "card", err)
}
