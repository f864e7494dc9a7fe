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
	var req wire.Credentials
	readCredentials(body, &req)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	sess, err := s.svc.Accounts().Signup(r.Context(), req.Email, req.Password, clientIP(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	noteSecretAnswer(r)
	writeJSON(w, http.StatusCreated, wire.OwnerSignupResponse{OwnerUID: sess.Owner.ID, Email: sess.Owner.Email, Token: sess.Token})
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.Credentials
	readCredentials(body, &req)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	sess, err := s.svc.Accounts().Login(r.Context(), req.Email, req.Password, clientIP(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	noteSecretAnswer(r)
	writeJSON(w, http.StatusOK, wire.OwnerLoginResponse{OwnerUID: sess.Owner.ID, Token: sess.Token})
}

// readCredentials reads the e-mail and password of a sign-up or login.
func readCredentials(body *object, req *wire.Credentials) {
	f := body.into(req)
	f.text(&req.Email)
	f.text(&req.Password)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request, _ botpay.Owner) {
	if err := s.svc.Accounts().Logout(r.Context(), bearer(r)); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.OwnerLogoutResponse{LoggedOut: true})
}

func (s *Server) pairingCode(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	pc, err := s.svc.Accounts().CreatePairingCode(r.Context(), o)
	if err != nil {
		writeError(w, r, err)
		return
	}
	noteSecretAnswer(r)
	writeJSON(w, http.StatusCreated, wire.CreatePairingCodeResponse{PairingCode: pc.Code, ExpiresAt: at(pc.ExpiresAt)})
}

func (s *Server) claim(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.ClaimBotRequest
	body.into(&req).text(&req.ClaimToken)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	b, err := s.svc.Bots().Claim(r.Context(), o, req.ClaimToken, clientIP(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.ClaimBotResponse{BotID: b.ID, BotName: b.Name, Status: b.Status(1),
		WalletStatus: botpay.WalletEmpty})
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
	var req wire.FundBotRequest
	form := body.into(&req)
	form.usd(&req.AmountUSD)
	form.optText(&req.Rail)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	f, err := s.svc.Wallets().Fund(r.Context(), o, pathID(r, "bot_id"), money(req.AmountUSD), deref(req.Rail))
	if err != nil {
		writeError(w, r, err)
		return
	}
	// The balance is of the rail funded: cents, or micro-USDC with up to
	// six decimals.
	balance := dollars(f.Wallet.Available())
	if f.Processor != nil {
		balance = dollars(f.Processor.Available())
	}
	writeJSON(w, http.StatusOK, wire.FundBotResponse{Transaction: viewTransaction(f.Transaction), BalanceUSD: balance})
}

func (s *Server) freeze(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// frozen is a plain bool in the wire type, so absent and false would
	// look alike there: it is read by name, and absent is refused.
	var req wire.FreezeBotRequest
	name := body.into(&req).name(&req.Frozen)
	frozen := body.boolean(name)
	if frozen == nil && body.problems[name] == "" {
		body.fail(name, "is required")
	}
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	b, err := s.svc.Wallets().Freeze(r.Context(), o, pathID(r, "bot_id"), *frozen)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.FreezeBotResponse{BotID: b.ID, Frozen: b.Frozen, Status: b.Status(1)})
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
	c := guardrailsChange(body)
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

// guardrailsChange reads a guardrails change. A null notes or
// ask_approval_above_usd removes it while an absent one keeps it, which
// the wire type cannot tell apart, so the members are read by their names
// there.
func guardrailsChange(body *object) spending.GuardrailsChange {
	var req wire.GuardrailsChange
	f := body.into(&req)
	var c spending.GuardrailsChange
	if name := f.name(&req.ApprovalMode); body.present(name) {
		mode := body.required(name)
		c.ApprovalMode = &mode
	}
	var lim wire.GuardrailsChangeLimits
	if limits := body.child(f.name(&req.Limits)); limits != nil {
		l := limits.into(&lim)
		c.PerTransaction = optionalUSD(limits, l.name(&lim.PerTransactionUSD))
		c.Daily = optionalUSD(limits, l.name(&lim.DailyUSD))
		c.Monthly = optionalUSD(limits, l.name(&lim.MonthlyUSD))
		if name := l.name(&lim.AskApprovalAboveUSD); limits.present(name) {
			c.AskApprovalAbove = new(*botpay.Money)
			*c.AskApprovalAbove = optionalUSD(limits, name)
		}
	}
	f.flag(&req.RecurringAllowed)
	c.RecurringAllowed = req.RecurringAllowed
	if name := f.name(&req.Notes); body.present(name) {
		c.Notes = new(*string)
		*c.Notes = body.optStr(name)
	}
	f.strings(&req.ApprovedCategories)
	f.strings(&req.BlockedCategories)
	c.ApprovedCategories, c.BlockedCategories = sentList(req.ApprovedCategories), sentList(req.BlockedCategories)
	return c
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
	// A field left out keeps its value; null removes that limit, so the
	// members are read by name (the wire type has nil for both).
	var req wire.PutMasterGuardrailsRequest
	f := body.into(&req)
	for name, dst := range map[string]**botpay.Money{f.name(&req.PerTransactionUSD): &m.PerTransaction,
		f.name(&req.DailyBudgetUSD): &m.DailyBudget, f.name(&req.MonthlyBudgetUSD): &m.MonthlyBudget} {
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
	var req wire.PutCallbackURLRequest
	body.into(&req).text(&req.CallbackURL)
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	b, err := s.svc.Bots().UpdateCallbackURL(r.Context(), o.ID, pathID(r, "bot_id"), req.CallbackURL)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, viewCallbackState(b))
}
