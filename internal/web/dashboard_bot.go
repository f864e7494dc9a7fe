package web

import (
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
)

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
	_, err := p.svc.Wallets().Fund(r.Context(), owner, r.PathValue("bot_id"), amount, rail)
	p.act(w, r, "funded", err)
}

func (p *Pages) freeze(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	frozen := r.PostFormValue("frozen") == "true"
	_, err := p.svc.Wallets().Freeze(r.Context(), owner, r.PathValue("bot_id"), frozen)
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
	_, err := p.svc.Spending().SetGuardrails(r.Context(), owner, r.PathValue("bot_id"), spending.GuardrailsChange{
		ApprovalMode: &mode, PerTransaction: &per, Daily: &daily, Monthly: &monthly, AskApprovalAbove: &above,
		RecurringAllowed: &recurring, Notes: &notesPtr, ApprovedCategories: &approved, BlockedCategories: &blocked})
	p.act(w, r, "guardrails", err)
}

func (p *Pages) saveProcurement(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	f := newForm(r)
	ad, bd, am, bm := f.list("allowed_domains"), f.list("blocked_domains"), f.list("allowed_merchants"), f.list("blocked_merchants")
	ar, br := f.list("allowed_recipients"), f.list("blocked_recipients")
	_, err := p.svc.Spending().SetProcurement(r.Context(), owner, r.PathValue("bot_id"), spending.ProcurementChange{
		AllowedDomains: &ad, BlockedDomains: &bd, AllowedMerchants: &am, BlockedMerchants: &bm,
		AllowedRecipients: &ar, BlockedRecipients: &br})
	p.act(w, r, "procurement", err)
}

func (p *Pages) saveCallback(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	_, err := p.svc.Bots().UpdateCallbackURL(r.Context(), owner.ID, r.PathValue("bot_id"), newForm(r).str("callback_url"))
	p.act(w, r, "callback", err)
}

func (p *Pages) createTask(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	f := newForm(r)
	in := spending.NewTaskInput{BotID: r.PathValue("bot_id"), MerchantName: f.str("merchant_name"), MerchantURL: f.str("merchant_url"),
		ItemName: f.str("item_name"), Category: f.str("category"), ProfileIndex: f.optionalInt("profile_index")}
	if f.str("amount_usd") != "" {
		cents := int(f.usd("amount_usd"))
		in.AmountCents = &cents
	}
	if err := f.err(); err != nil {
		p.fail(w, r, err)
		return
	}
	_, err := p.svc.Spending().CreateTask(r.Context(), owner, in)
	p.act(w, r, "task", err)
}

func (p *Pages) setCardStatus(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	_, err := p.svc.Spending().SetCardStatus(r.Context(), owner, r.PathValue("bot_id"), r.PathValue("card_id"), r.PostFormValue("status"))
	p.act(w, r, "card", err)
}

func (p *Pages) cancelInvoice(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	_, err := p.svc.Earning().CancelInvoice(r.Context(), owner, r.PathValue("invoice_id"))
	p.act(w, r, "cancelled", err)
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
	if decoys < 0 || decoys >= spending.MaxProfiles {
		f.p["decoy_profiles"] = "must be from 0 to " + itoa(spending.MaxProfiles-1)
	}
	if err := f.err(); err != nil {
		p.fail(w, r, err)
		return
	}
	profiles := make([]botpay.PaymentProfile, 0, decoys+1)
	for i := 1; i <= decoys+1; i++ {
		profiles = append(profiles, botpay.PaymentProfile{Index: i, AllowanceDuration: duration, Allowance: allowance})
	}
	_, err := p.svc.Spending().CreateCard(r.Context(), owner, spending.NewCardInput{BotID: r.PathValue("bot_id"), CardName: f.str("card_name"),
		MissingDigits: f.str("missing_digits"), ExpiryMonth: f.str("expiry_month"), ExpiryYear: f.str("expiry_year"),
		RealProfileIndex: 1, Profiles: profiles})
	p.act(w, r, "card", err)
}

// createRail5Card hands a card to the bot as an encrypted card file, through
// the same use case as POST /api/v1/owner/bots/{bot_id}/rail5-cards.
func (p *Pages) createRail5Card(w http.ResponseWriter, r *http.Request, owner botpay.Owner) {
	f := newForm(r)
	_, err := p.svc.Spending().CreateRail5Card(r.Context(), owner, spending.Rail5CardInput{BotID: r.PathValue("bot_id"),
		CardName: f.str("r5_card_name"), Number: f.str("r5_number"), CVV: f.str("r5_cvv"),
		ExpiryMonth: f.str("r5_expiry_month"), ExpiryYear: f.str("r5_expiry_year"), HolderName: f.str("r5_holder_name")})
	p.act(w, r, "card", err)
}
