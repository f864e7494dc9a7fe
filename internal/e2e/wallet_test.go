package e2e

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/testserver"
)

func TestUnclaimedBotHasAPendingWalletAndNoLedger(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		bot, reg := h.register(client.RegisterRequest{BotName: "waiting", OwnerEmail: uniqueEmail("waiting")})

		st, err := bot.Status(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.BotID != reg.BotID || st.BotName != "waiting" || st.Status != client.BotPending || textOf(st.Message) == "" {
			t.Errorf("status = %+v, want bot %s pending with a message", st, reg.BotID)
		}
		if st.DefaultRail != nil || len(st.ActiveRails) != 0 || st.Rails.CardWallet != nil || st.MasterGuardrails != nil {
			t.Errorf("default_rail %v active_rails %v rails %+v master %v; want null, [], {}, null",
				st.DefaultRail, st.ActiveRails, st.Rails, st.MasterGuardrails)
		}
		raw := h.wire.fields("GET /api/v1/bot/status")
		wantNull(t, raw, "default_rail")
		wantNull(t, raw, "master_guardrails")
		if string(raw["active_rails"]) != "[]" || string(raw["rails"]) != "{}" {
			t.Errorf("active_rails %s, rails %s; want [] and {}", raw["active_rails"], raw["rails"])
		}

		w, err := bot.WalletCheck(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if w.WalletStatus != client.WalletPending || w.BalanceUSD != 0 || w.CardStatus != "inactive" || textOf(w.Message) == "" {
			t.Errorf("wallet/check = %+v, want pending, 0, inactive, a message", w)
		}
		if string(h.wire.fields("GET /api/v1/bot/wallet/check")["balance_usd"]) == "" {
			t.Error("wallet/check lacks balance_usd")
		}

		_, err = bot.Transactions(h.ctx, 0)
		wantError(t, err, http.StatusForbidden, client.CodeWalletNotActive)
		_, err = bot.Spending(h.ctx)
		wantError(t, err, http.StatusForbidden, client.CodeWalletNotActive)
		_, err = bot.TopupRequest(h.ctx, 1000, "")
		wantError(t, err, http.StatusForbidden, client.CodeWalletNotActive)
	})
}

// TestClaimFundAndTopUpWalkThrough is the life of a bot from registration to
// a covered top-up request, as its owner and the bot see it.
func TestClaimFundAndTopUpWalkThrough(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		// The bot names one address; the owner's account uses another. The
		// verification goes to the first, top-up requests to the account.
		botEmail, accountEmail := uniqueEmail("alice"), uniqueEmail("alice-account")
		c := registerAndClaim(t, h, botEmail, accountEmail)
		checkClaimedAndEmpty(t, h, c)
		checkFirstFunding(t, h, c)
		checkBotSeesOwnersRules(t, h, c)
		checkTopupRequestMailsTheAccount(t, h, c, botEmail, accountEmail)
		checkFundingClosesTheTopup(t, h, c)
	})
}

// registerAndClaim registers a bot naming botEmail and has an owner signed
// up as accountEmail claim it.
func registerAndClaim(t *testing.T, h *harness, botEmail, accountEmail string) claimed {
	bot, reg := h.register(client.RegisterRequest{BotName: "shopper", OwnerEmail: botEmail})
	verify := h.mailTo(botEmail)
	if len(verify) != 1 || !strings.Contains(verify[0].Text, textOf(reg.OwnerVerificationURL)) {
		t.Fatalf("verification e-mails to %s: %+v; want one carrying %s", botEmail, verify, textOf(reg.OwnerVerificationURL))
	}

	owner, sess := h.signup(accountEmail)
	if got := h.wire.answer("POST /api/v1/owner/signup").status; got != http.StatusCreated || sess.Email != accountEmail {
		t.Errorf("signup HTTP %d email %q, want 201 %s", got, sess.Email, accountEmail)
	}
	c := claimed{bot: bot, reg: reg, owner: owner, sess: sess}
	cl, err := owner.Claim(h.ctx, *reg.ClaimToken)
	if err != nil {
		t.Fatal(err)
	}
	if *cl != (client.ClaimResult{BotID: reg.BotID, BotName: "shopper", Status: client.BotActive, WalletStatus: client.WalletEmpty}) {
		t.Errorf("claim = %+v", cl)
	}

	return c
}

// checkClaimedAndEmpty: claimed, nothing funded yet.
func checkClaimedAndEmpty(t *testing.T, h *harness, c claimed) {
	bot := c.bot
	w := walletCheck(t, h, bot)
	if w.WalletStatus != client.WalletEmpty || w.BalanceUSD != 0 || w.CardStatus != "active" || w.PendingTopups != 0 || w.SpendingLimits == nil {
		t.Errorf("wallet/check after claim = %+v, want empty, 0, active card, no top-ups, limits", w)
	}
	st := status(t, h, bot)
	if st.Status != client.BotActive || st.DefaultRail == nil || *st.DefaultRail != client.RailCardWallet ||
		!slices.Equal(st.ActiveRails, []string{client.RailCardWallet}) || st.Rails.CardWallet == nil ||
		st.Rails.CardWallet.Status != "active" || st.Rails.CardWallet.BalanceUSD != 0 || st.WalletStatus != client.WalletEmpty {
		t.Errorf("status after claim = %+v (card_wallet %+v)", st, st.Rails.CardWallet)
	}

}

func checkFirstFunding(t *testing.T, h *harness, c claimed) {
	bot := c.bot
	f := h.fund(c, 2500, client.WithIdempotencyKey("fund-1"))
	tx := f.Transaction
	if tx.ID <= 0 || tx.Type != "fund" || usdOf(tx.AmountUSD) != 2500 || tx.BalanceAfterUSD == nil || usdOf(*tx.BalanceAfterUSD) != 2500 ||
		usdOf(f.BalanceUSD) != 2500 {
		t.Errorf("funding = %+v (transaction %+v), want fund 25.00 → 25.00", f, tx)
	}
	if age := time.Since(tx.CreatedAt.Time); age < -time.Minute || age > time.Minute {
		t.Errorf("created_at = %v, want about now", tx.CreatedAt)
	}
	if w := walletCheck(t, h, bot); w.WalletStatus != client.WalletActive || w.BalanceUSD != 2500 || w.CardStatus != "active" {
		t.Errorf("wallet/check after funding = %+v, want active 25.00", w)
	}
	if st := status(t, h, bot); st.Status != client.BotActive || st.Rails.CardWallet == nil || st.Rails.CardWallet.BalanceUSD != 2500 || st.WalletStatus != client.WalletActive {
		t.Errorf("status after funding = %+v (card_wallet %+v)", st, st.Rails.CardWallet)
	}
	txs, err := bot.Transactions(h.ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(txs) != 1 || txs[0].ID != tx.ID || txs[0].Type != "fund" || usdOf(txs[0].AmountUSD) != 2500 || txs[0].BalanceAfterUSD == nil || usdOf(*txs[0].BalanceAfterUSD) != 2500 ||
		txs[0].Description == "" || !txs[0].CreatedAt.Equal(tx.CreatedAt.Time) {
		t.Errorf("transactions = %+v, want the one funding %+v", txs, tx)
	}

}

// checkBotSeesOwnersRules: the bot sees the rules its owner sees.
func checkBotSeesOwnersRules(t *testing.T, h *harness, c claimed) {
	bot, owner, reg := c.bot, c.owner, c.reg
	spending, err := bot.Spending(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := owner.Guardrails(h.ctx, reg.BotID)
	if err != nil {
		t.Fatal(err)
	}
	if !sameGuardrails(*spending, *rules) {
		t.Errorf("bot spending %+v differs from the owner's view %+v", spending, rules)
	}

}

// checkTopupRequestMailsTheAccount: a top-up request e-mails the owner's
// account address, not the bot's owner_email.
func checkTopupRequestMailsTheAccount(t *testing.T, h *harness, c claimed, botEmail, accountEmail string) {
	bot := c.bot
	tr, err := bot.TopupRequest(h.ctx, 4000, "more API credits", client.WithIdempotencyKey("topup-1"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.TopupRequestID <= 0 || tr.Status != "sent" || tr.AmountUSD != 4000 || !tr.OwnerNotified || tr.Message == "" {
		t.Errorf("topup-request = %+v, want sent 40.00, owner notified", tr)
	}
	asked := h.mailTo(accountEmail)
	if len(asked) != 1 || !strings.Contains(asked[0].Text, "40.00") || !strings.Contains(asked[0].Text, "more API credits") ||
		!strings.Contains(asked[0].Subject+asked[0].Text, "shopper") {
		t.Errorf("top-up e-mails to %s: %+v; want one naming the bot, $40.00 and the reason", accountEmail, asked)
	}
	if n := len(h.mailTo(botEmail)); n != 1 {
		t.Errorf("%d e-mails to the bot's owner_email, want only the verification", n)
	}
	if w := walletCheck(t, h, bot); w.PendingTopups != 1 {
		t.Errorf("pending_topups = %d after the request, want 1", w.PendingTopups)
	}

}

// checkFundingClosesTheTopup: funding less than asked leaves the request
// open; enough closes it; the history lists every funding, newest first.
func checkFundingClosesTheTopup(t *testing.T, h *harness, c claimed) {
	bot, owner, reg := c.bot, c.owner, c.reg
	h.fund(c, 1000)
	if w := walletCheck(t, h, bot); w.PendingTopups != 1 || w.BalanceUSD != 3500 {
		t.Errorf("after $10: pending_topups %d balance %s, want 1 and 35.00", w.PendingTopups, w.BalanceUSD)
	}
	h.fund(c, 4000)
	if w := walletCheck(t, h, bot); w.PendingTopups != 0 || w.BalanceUSD != 7500 || w.WalletStatus != client.WalletActive {
		t.Errorf("after $40: %+v, want no pending top-ups and 75.00", w)
	}

	txs, err := bot.Transactions(h.ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ amount, after client.USD }{{4000, 7500}, {1000, 3500}, {2500, 2500}} // newest first
	if len(txs) != len(want) {
		t.Fatalf("%d transactions, want %d: %+v", len(txs), len(want), txs)
	}
	for i, w := range want {
		if txs[i].Type != "fund" || usdOf(txs[i].AmountUSD) != w.amount || txs[i].BalanceAfterUSD == nil || usdOf(*txs[i].BalanceAfterUSD) != w.after {
			t.Errorf("transactions[%d] = %+v, want fund %s → %s", i, txs[i], w.amount, w.after)
		}
		if i > 0 && txs[i].ID >= txs[i-1].ID {
			t.Errorf("transactions not newest first: ids %d then %d", txs[i-1].ID, txs[i].ID)
		}
	}
	mine, err := owner.BotsMine(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(mine) != 1 || mine[0].BotID != reg.BotID || mine[0].Status != client.BotActive || mine[0].WalletStatus != client.WalletActive ||
		mine[0].ClaimedAt == nil {
		t.Errorf("bots/mine = %+v", mine)
	}
}

func walletCheck(t *testing.T, h *harness, bot *client.Client) *client.WalletCheck {
	t.Helper()
	w, err := bot.WalletCheck(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func status(t *testing.T, h *harness, bot *client.Client) *client.BotStatus {
	t.Helper()
	st, err := bot.Status(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// sameGuardrails compares two answers field by field (time by instant).
func sameGuardrails(a, b client.Guardrails) bool {
	eqUSD := func(x, y *client.USD) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	eqStr := func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return a.ApprovalMode == b.ApprovalMode && a.Limits.PerTransactionUSD == b.Limits.PerTransactionUSD &&
		a.Limits.DailyUSD == b.Limits.DailyUSD && a.Limits.MonthlyUSD == b.Limits.MonthlyUSD &&
		eqUSD(a.Limits.AskApprovalAboveUSD, b.Limits.AskApprovalAboveUSD) && a.RecurringAllowed == b.RecurringAllowed &&
		eqStr(a.Notes, b.Notes) && a.UpdatedAt.Equal(b.UpdatedAt.Time) &&
		slices.Equal(a.ApprovedCategories, b.ApprovedCategories) && slices.Equal(a.BlockedCategories, b.BlockedCategories)
}

func TestFreezeStopsTheWalletAndUnfreezeRestoresIt(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("freezer")
		h.fund(c, 1500)

		fr, err := c.owner.Freeze(h.ctx, c.reg.BotID, true)
		if err != nil {
			t.Fatal(err)
		}
		if *fr != (client.FreezeResult{BotID: c.reg.BotID, Frozen: true, Status: client.BotFrozen}) {
			t.Errorf("freeze = %+v", fr)
		}
		st := status(t, h, c.bot)
		if st.Status != client.BotFrozen || len(st.ActiveRails) != 0 {
			t.Errorf("frozen bot status %q active_rails %v, want frozen, []", st.Status, st.ActiveRails)
		}
		w := walletCheck(t, h, c.bot)
		if !w.Frozen || w.CardStatus != "inactive" || w.WalletStatus != client.WalletInactive || w.BalanceUSD != 1500 {
			t.Errorf("frozen wallet/check = %+v, want frozen, inactive card and wallet, balance kept", w)
		}
		mine, err := c.owner.BotsMine(h.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(mine) != 1 || mine[0].Status != client.BotFrozen {
			t.Errorf("bots/mine while frozen = %+v", mine)
		}

		fr, err = c.owner.Freeze(h.ctx, c.reg.BotID, false)
		if err != nil {
			t.Fatal(err)
		}
		if *fr != (client.FreezeResult{BotID: c.reg.BotID, Frozen: false, Status: client.BotActive}) {
			t.Errorf("unfreeze = %+v", fr)
		}
		st = status(t, h, c.bot)
		if st.Status != client.BotActive || !slices.Equal(st.ActiveRails, []string{client.RailCardWallet}) {
			t.Errorf("unfrozen bot status %q active_rails %v", st.Status, st.ActiveRails)
		}
		if w := walletCheck(t, h, c.bot); w.Frozen || w.CardStatus != "active" || w.WalletStatus != client.WalletActive {
			t.Errorf("unfrozen wallet/check = %+v", w)
		}
	})
}

func TestTopupRequestValidatesAmountAndReason(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("validated")
		tests := []struct {
			name   string
			amount client.USD
			reason string
			field  string
		}{
			{"zero amount", 0, "", "amount_usd"},
			{"negative amount", -100, "", "amount_usd"},
			{"reason too long", 100, strings.Repeat("x", 501), "reason"},
		}
		for _, tt := range tests {
			_, err := c.bot.TopupRequest(h.ctx, tt.amount, tt.reason)
			if e := wantError(t, err, http.StatusBadRequest, client.CodeValidation); e.Details[tt.field] == "" {
				t.Errorf("%s: details = %v, want %s named", tt.name, e.Details, tt.field)
			}
		}
	})
}

func TestTransactionsLimitIsValidatedNotClamped(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		c := h.claimedBot("ledger")
		for _, cents := range []client.USD{100, 200, 300} {
			h.fund(c, cents)
		}
		tests := []struct {
			limit      int
			wantNewest []client.USD // amounts, newest first; nil means an error
		}{
			{0, []client.USD{300, 200, 100}},
			{1, []client.USD{300}},
			{2, []client.USD{300, 200}},
			{100, []client.USD{300, 200, 100}},
			{101, nil},
			{-1, nil},
		}
		for _, tt := range tests {
			txs, err := c.bot.Transactions(h.ctx, tt.limit)
			if tt.wantNewest == nil {
				if e := wantError(t, err, http.StatusBadRequest, client.CodeValidation); e.Details["limit"] == "" {
					t.Errorf("limit %d: details = %v, want limit named", tt.limit, e.Details)
				}
				continue
			}
			if err != nil {
				t.Fatalf("limit %d: %v", tt.limit, err)
			}
			var got []client.USD
			for _, tx := range txs {
				got = append(got, usdOf(tx.AmountUSD))
			}
			if !slices.Equal(got, tt.wantNewest) {
				t.Errorf("limit %d: amounts %v, want %v", tt.limit, got, tt.wantNewest)
			}
		}
	})
}

func TestBotEndpointsRejectMissingOrUnknownAPIKeys(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		for _, key := range []string{"", "garbage", "bp_live_" + strings.Repeat("0", 48)} {
			_, err := h.bots.WithAPIKey(key).Status(h.ctx)
			wantError(t, err, http.StatusUnauthorized, client.CodeAuthRequired)
			_, err = h.bots.WithAPIKey(key).TopupRequest(h.ctx, 100, "")
			wantError(t, err, http.StatusUnauthorized, client.CodeAuthRequired)
		}
	})
}
