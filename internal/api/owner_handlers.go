package api

import (
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
	"github.com/botpay/botpay/wire"
)

func (s *Server) signup(w http.ResponseWriter, r *http.Request) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	email, password := body.required("email"), body.required("password")
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	sess, err := s.svc.Accounts().Signup(r.Context(), email, password, clientIP(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	noteSecretAnswer(r)
	writeJSON(w, http.StatusCreated, map[string]string{"owner_uid": sess.Owner.ID, "email": sess.Owner.Email, "token": sess.Token})
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	email, password := body.required("email"), body.required("password")
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	sess, err := s.svc.Accounts().Login(r.Context(), email, password, clientIP(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	noteSecretAnswer(r)
	writeJSON(w, http.StatusOK, map[string]string{"owner_uid": sess.Owner.ID, "token": sess.Token})
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request, _ botpay.Owner) {
	if err := s.svc.Accounts().Logout(r.Context(), bearer(r)); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"logged_out": true})
}

func (s *Server) pairingCode(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	pc, err := s.svc.Accounts().CreatePairingCode(r.Context(), o)
	if err != nil {
		writeError(w, r, err)
		return
	}
	noteSecretAnswer(r)
	writeJSON(w, http.StatusCreated, map[string]any{"pairing_code": pc.Code, "expires_at": botpay.Timestamp(pc.ExpiresAt)})
}

func (s *Server) claim(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	token := body.required("claim_token")
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	b, err := s.svc.Bots().Claim(r.Context(), o, token, clientIP(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"bot_id": b.ID, "bot_name": b.Name,
		"status": b.Status(1), "wallet_status": botpay.WalletEmpty})
}

// botsMine answers a bare array (docs/api.md), so its next page
// is named in a Link header instead of has_more and next_cursor.
func (s *Server) botsMine(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	list := newList(r, "bots_mine", o.ID, maxPageLimit)
	page, err := s.page(r, list)
	if err != nil {
		writeError(w, r, err)
		return
	}
	bots, err := s.svc.BotsOf(r.Context(), o, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]wire.OwnedBot, len(bots.Items))
	for i, ob := range bots.Items {
		b := ob.Bot
		out[i] = wire.OwnedBot{BotID: b.ID, BotName: b.Name, Description: b.Description, Status: b.Status(ob.ActiveRails),
			WalletStatus: ob.WalletStatus, CallbackURL: optText(b.CallbackURL), WebhookStatus: b.WebhookStatus,
			WebhookFailCount: b.WebhookFailCount, CreatedAt: at(b.CreatedAt), ClaimedAt: optTime(b.ClaimedAt)}
	}
	s.linkNext(w, r, list, bots.Next)
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) fund(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	amount, _ := body.usd("amount_usd", requiredField)
	rail := body.optional("rail")
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	f, err := s.svc.Fund(r.Context(), o, pathID(r, "bot_id"), amount, rail)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var balance any = f.Wallet.Available()
	if f.Processor != nil {
		balance = f.Processor.Available()
	}
	writeJSON(w, http.StatusOK, map[string]any{"transaction": viewTransaction(f.Transaction), "balance_usd": balance})
}

func (s *Server) freeze(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	frozen := body.boolean("frozen")
	if frozen == nil && body.problems["frozen"] == "" {
		body.fail("frozen", "is required")
	}
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	b, err := s.svc.Freeze(r.Context(), o, pathID(r, "bot_id"), *frozen)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"bot_id": b.ID, "frozen": b.Frozen, "status": b.Status(1)})
}

func (s *Server) getGuardrails(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	g, err := s.svc.Spending().OwnedGuardrails(r.Context(), o, pathID(r, "bot_id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewGuardrails(g))
}

func (s *Server) putGuardrails(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var c spending.GuardrailsChange
	if body.present("approval_mode") {
		mode := body.required("approval_mode")
		c.ApprovalMode = &mode
	}
	if limits := body.child("limits"); limits != nil {
		c.PerTransaction = optionalUSD(limits, "per_transaction_usd")
		c.Daily = optionalUSD(limits, "daily_usd")
		c.Monthly = optionalUSD(limits, "monthly_usd")
		if limits.present("ask_approval_above_usd") {
			c.AskApprovalAbove = new(*botpay.Money)
			*c.AskApprovalAbove = optionalUSD(limits, "ask_approval_above_usd")
		}
	}
	c.RecurringAllowed = body.boolean("recurring_allowed")
	if body.present("notes") {
		c.Notes = new(*string)
		*c.Notes = body.optStr("notes")
	}
	c.ApprovedCategories = body.strings("approved_categories")
	c.BlockedCategories = body.strings("blocked_categories")
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	g, err := s.svc.Spending().SetGuardrails(r.Context(), o, pathID(r, "bot_id"), c)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewGuardrails(g))
}

// optionalUSD is nil when the field is absent or null.
func optionalUSD(o *object, name string) *botpay.Money {
	m, ok := o.usd(name, optionalField)
	if !ok {
		return nil
	}
	return &m
}

func (s *Server) getMasterGuardrails(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	m, err := s.svc.Spending().MasterGuardrails(r.Context(), o)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if m == nil {
		writeJSON(w, http.StatusOK, wire.MasterGuardrails{})
		return
	}
	writeJSON(w, http.StatusOK, viewMaster(m))
}

func (s *Server) putMasterGuardrails(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	current, err := s.svc.Spending().MasterGuardrails(r.Context(), o)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var m botpay.MasterGuardrails
	if current != nil {
		m = *current
	}
	// A field left out keeps its value; null removes that limit.
	for name, dst := range map[string]**botpay.Money{"per_transaction_usd": &m.PerTransaction,
		"daily_budget_usd": &m.DailyBudget, "monthly_budget_usd": &m.MonthlyBudget} {
		if body.present(name) {
			*dst = optionalUSD(body, name)
		}
	}
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	m, err = s.svc.Spending().SetMasterGuardrails(r.Context(), o, m)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewMaster(&m))
}

func (s *Server) putCallbackURL(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	url := body.required("callback_url")
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	b, err := s.svc.UpdateCallbackURL(r.Context(), o.ID, pathID(r, "bot_id"), url)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"bot_id": b.ID, "callback_url": b.CallbackURL,
		"webhook_status": b.WebhookStatus, "webhook_fail_count": b.WebhookFailCount})
}
