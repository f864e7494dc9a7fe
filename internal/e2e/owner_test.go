package e2e

import (
	"net/http"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/testserver"
)

func TestOwnerSignupLoginAndLogout(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		const password = "correct horse battery staple"
		email := uniqueEmail("owner")
		owner, sess := h.signup(email)
		if sess.OwnerUID == "" || sess.Email != email || !ownerTokenText.MatchString(sess.Token) {
			t.Errorf("signup = %+v", sess)
		}

		_, err := h.owners.Signup(h.ctx, email, password)
		wantError(t, err, http.StatusConflict, client.CodeEmailTaken)
		_, err = h.owners.Signup(h.ctx, uniqueEmail("short"), "short")
		if e := wantError(t, err, http.StatusBadRequest, client.CodeValidation); e.Details["password"] == "" {
			t.Errorf("details = %v, want password named", e.Details)
		}
		_, err = h.owners.Login(h.ctx, email, "wrong password, long enough")
		wantError(t, err, http.StatusUnauthorized, client.CodeInvalidCredentials)

		login, err := h.owners.Login(h.ctx, email, password)
		if err != nil {
			t.Fatal(err)
		}
		if login.OwnerUID != sess.OwnerUID || login.Token == sess.Token || !ownerTokenText.MatchString(login.Token) {
			t.Errorf("login = %+v, want the same owner with a new token", login)
		}
		second := h.owners.WithToken(login.Token)

		if err := owner.Logout(h.ctx); err != nil {
			t.Fatal(err)
		}
		_, err = owner.BotsMine(h.ctx)
		wantError(t, err, http.StatusUnauthorized, client.CodeAuthRequired)
		// Logging out one session leaves the others alone.
		if mine, err := second.BotsMine(h.ctx); err != nil || len(mine) != 0 {
			t.Errorf("other session after logout: %v, %v; want an empty list", mine, err)
		}
	})
}

func TestClaimNeedsAnUnusedClaimToken(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("claimed-once")
		other, _ := h.signup(uniqueEmail("late"))

		_, err := other.Claim(h.ctx, *c.reg.ClaimToken)
		wantError(t, err, http.StatusNotFound, client.CodeInvalidClaimToken)
		_, err = other.Claim(h.ctx, "reef-AAAA")
		wantError(t, err, http.StatusNotFound, client.CodeInvalidClaimToken)
		_, err = other.Claim(h.ctx, "")
		wantError(t, err, http.StatusBadRequest, client.CodeValidation)
	})
}

func TestOwnersCannotSeeOrTouchEachOthersBots(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("private")
		stranger, _ := h.signup(uniqueEmail("stranger"))
		id := c.reg.BotID

		if mine, err := stranger.BotsMine(h.ctx); err != nil || len(mine) != 0 {
			t.Errorf("stranger's bots/mine = %v, %v; want empty", mine, err)
		}
		tests := []struct {
			name string
			call func() error
		}{
			{"fund", func() error { _, err := stranger.Fund(h.ctx, id, 100, ""); return err }},
			{"freeze", func() error { _, err := stranger.Freeze(h.ctx, id, true); return err }},
			{"read guardrails", func() error { _, err := stranger.Guardrails(h.ctx, id); return err }},
			{"set guardrails", func() error {
				_, err := stranger.SetGuardrails(h.ctx, id, client.Guardrails{ApprovalMode: client.ApprovalAskForEverything})
				return err
			}},
			{"set callback url", func() error { _, err := stranger.SetCallbackURL(h.ctx, id, "https://evil.example/hook"); return err }},
			{"fund a bot that does not exist", func() error { _, err := c.owner.Fund(h.ctx, "bot_0000000000000000", 100, ""); return err }},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				wantError(t, tt.call(), http.StatusNotFound, client.CodeNotFound)
			})
		}
		// Nothing the stranger tried reached the bot.
		if w := walletCheck(t, h, c.bot); w.BalanceUSD != 0 || w.Frozen {
			t.Errorf("wallet after a stranger's attempts = %+v", w)
		}
	})
}

func TestOwnerGuardrailsReachTheBot(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("ruled")
		notes := "office supplies only"
		want := client.Guardrails{
			ApprovalMode: client.ApprovalByCategory,
			Limits: client.GuardrailLimits{PerTransactionUSD: 4999, DailyUSD: 12000, MonthlyUSD: 80050,
				AskApprovalAboveUSD: usd(2001)},
			RecurringAllowed:   true,
			Notes:              &notes,
			ApprovedCategories: []string{"office", "saas"},
			BlockedCategories:  []string{"gambling"},
		}
		set, err := c.owner.SetGuardrails(h.ctx, c.reg.BotID, want)
		if err != nil {
			t.Fatal(err)
		}
		want.UpdatedAt = set.UpdatedAt
		if !sameGuardrails(*set, want) {
			t.Errorf("PUT guardrails answered %+v, want %+v", set, want)
		}
		got, err := c.bot.Spending(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !sameGuardrails(*got, want) {
			t.Errorf("bot spending = %+v, want %+v", got, want)
		}
		if w := walletCheck(t, h, c.bot); w.SpendingLimits == nil ||
			*w.SpendingLimits != (client.SpendingLimits{PerTransactionUSD: 4999, MonthlyUSD: 80050, MonthlySpentUSD: 0, MonthlyRemainingUSD: 80050}) {
			t.Errorf("wallet/check spending_limits = %+v", w.SpendingLimits)
		}

		// Clearing the threshold and the notes, emptying the lists.
		want.Notes, want.Limits.AskApprovalAboveUSD, want.ApprovedCategories, want.BlockedCategories = nil, nil, []string{}, []string{}
		if _, err := c.owner.SetGuardrails(h.ctx, c.reg.BotID, want); err != nil {
			t.Fatal(err)
		}
		raw := h.wire.fields("PUT /api/v1/owner/bots/" + c.reg.BotID + "/guardrails")
		wantNull(t, raw, "notes")
		if got, err := c.bot.Spending(h.ctx); err != nil || got.Notes != nil || got.Limits.AskApprovalAboveUSD != nil ||
			len(got.ApprovedCategories) != 0 || len(got.BlockedCategories) != 0 {
			t.Errorf("after clearing: %+v, %v", got, err)
		}

		_, err = c.owner.SetGuardrails(h.ctx, c.reg.BotID, client.Guardrails{ApprovalMode: "yolo"})
		if e := wantError(t, err, http.StatusBadRequest, client.CodeValidation); e.Details["approval_mode"] == "" {
			t.Errorf("details = %v, want approval_mode named", e.Details)
		}
	})
}

func TestMasterGuardrailsShowInTheBotStatus(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("mastered")
		m, err := c.owner.MasterGuardrails(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if m.PerTransactionUSD != nil || m.DailyBudgetUSD != nil || m.MonthlyBudgetUSD != nil {
			t.Errorf("unset master guardrails = %+v, want all null", m)
		}

		set, err := c.owner.SetMasterGuardrails(h.ctx, client.MasterGuardrails{PerTransactionUSD: usd(5000), MonthlyBudgetUSD: usd(200000)})
		if err != nil {
			t.Fatal(err)
		}
		if set.PerTransactionUSD == nil || *set.PerTransactionUSD != 5000 || set.DailyBudgetUSD != nil ||
			set.MonthlyBudgetUSD == nil || *set.MonthlyBudgetUSD != 200000 || set.UpdatedAt == nil {
			t.Errorf("PUT master guardrails = %+v", set)
		}
		st := status(t, h, c.bot)
		mg := st.MasterGuardrails
		if mg == nil || mg.PerTransactionUSD == nil || *mg.PerTransactionUSD != 5000 || mg.DailyBudgetUSD != nil ||
			mg.MonthlyBudgetUSD == nil || *mg.MonthlyBudgetUSD != 200000 {
			t.Errorf("status master_guardrails = %+v", mg)
		}
		wantNull(t, h.wire.fields("PUT /api/v1/owner/master-guardrails"), "daily_budget_usd")
	})
}

func TestCallbackURLChangesResetWebhookHealth(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("relocated") // a tunnel bot: webhook_status none
		const byBot, byOwner = "https://bot.example.com/v2/hooks", "https://owner.example.com/bot-hook"

		ws, err := c.bot.UpdateProfile(h.ctx, byBot)
		if err != nil {
			t.Fatal(err)
		}
		if *ws != (client.WebhookState{BotID: c.reg.BotID, CallbackURL: byBot, WebhookStatus: "active", WebhookFailCount: 0}) {
			t.Errorf("PATCH profile = %+v", ws)
		}
		if st := status(t, h, c.bot); st.CallbackURL == nil || *st.CallbackURL != byBot || st.WebhookStatus != "active" {
			t.Errorf("status after PATCH: callback_url %v webhook_status %q", st.CallbackURL, st.WebhookStatus)
		}

		ws, err = c.owner.SetCallbackURL(h.ctx, c.reg.BotID, byOwner)
		if err != nil {
			t.Fatal(err)
		}
		if ws.WebhookStatus != "active" || ws.CallbackURL != byOwner || ws.WebhookFailCount != 0 {
			t.Errorf("PUT callback-url = %+v", ws)
		}
		mine, err := c.owner.BotsMine(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(mine) != 1 || mine[0].CallbackURL == nil || *mine[0].CallbackURL != byOwner || mine[0].WebhookStatus != "active" {
			t.Errorf("bots/mine = %+v", mine)
		}

		for _, bad := range []string{"", "not a url", "ftp://bot.example.com/x", "https://user:pw@bot.example.com/"} {
			_, err := c.bot.UpdateProfile(h.ctx, bad)
			if e := wantError(t, err, http.StatusBadRequest, client.CodeValidation); e.Details["callback_url"] == "" {
				t.Errorf("%q: details = %v, want callback_url named", bad, e.Details)
			}
		}
		if st := status(t, h, c.bot); st.CallbackURL == nil || *st.CallbackURL != byOwner || st.WebhookStatus != "active" {
			t.Errorf("a refused change altered the webhook: callback_url %v, webhook_status %q", st.CallbackURL, st.WebhookStatus)
		}
	})
}
