package e2e

import (
	"net/http"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/testserver"
	"github.com/botpay/botpay/wire"
)

func TestAutoApprovedCheckoutDebitsAndHandsOutTheCard(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("buyer", client.Dollars(30, 0), nil)

		got, err := s.bot.Checkout(h.ctx, purchase(2000))
		if err != nil {
			t.Fatal(err)
		}
		if a := h.wire.answer("POST /api/v1/bot/merchant/checkout"); a.status != http.StatusOK {
			t.Fatalf("HTTP %d, want 200", a.status)
		}
		if !isTrue(got.Approved) || textOf(got.MissingDigits) != realDigits || textOf(got.ExpiryMonth) != realMonth || textOf(got.ExpiryYear) != realYear ||
			got.ConfirmationID == "" || got.ProfileIndex != 1 || got.MerchantName != "Acme" || got.AmountUSD != 2000 || got.Message == "" {
			t.Errorf("checkout = %+v, want approved with the real card", got)
		}
		if s.available(h) != 1000 {
			t.Errorf("available = %s, want 10.00", s.available(h))
		}
		txs, err := s.bot.Transactions(h.ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(txs) != 2 || txs[0].Type != "spend" || usdOf(txs[0].AmountUSD) != -2000 || txs[0].BalanceAfterUSD == nil || usdOf(*txs[0].BalanceAfterUSD) != 1000 {
			t.Errorf("transactions = %+v, want a spend of -20.00 leaving 10.00", txs)
		}
		st, err := s.bot.CheckoutStatus(h.ctx, got.ConfirmationID)
		if err != nil {
			t.Fatal(err)
		}
		if st.Status != client.PurchaseApproved || textOf(st.MissingDigits) != realDigits || st.ItemName != "Widget" {
			t.Errorf("status = %+v, want approved with digits", st)
		}
		// $30 - $20 - $6 = $4: the balance falls under the $5 threshold once.
		if _, err := s.bot.Checkout(h.ctx, purchase(600)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.bot.Checkout(h.ctx, purchase(100)); err != nil {
			t.Fatal(err)
		}
		evs := h.events(s.reg.BotID)
		if countOf(evs, "wallet.spend.authorized") != 3 || countOf(evs, "wallet.balance.low") != 1 {
			t.Errorf("events = %v, want 3 wallet.spend.authorized and 1 wallet.balance.low", evs)
		}
		if countOf(evs, "purchase.approved") != 0 {
			t.Errorf("events = %v: an automatic approval is not an owner decision", evs)
		}
	})
}

func TestDecoyProfileIsApprovedWithoutMovingMoney(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("decoy", client.Dollars(50, 0), nil)
		req := purchase(2000)
		req.ProfileIndex = 2
		got, err := s.bot.Checkout(h.ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if !isTrue(got.Approved) || textOf(got.MissingDigits) == "" || len(textOf(got.MissingDigits)) != len(realDigits) || textOf(got.ExpiryMonth) == "" {
			t.Errorf("decoy checkout = %+v, want approved with decoy digits", got)
		}
		if textOf(got.MissingDigits) == realDigits && textOf(got.ExpiryYear) == realYear && textOf(got.ExpiryMonth) == realMonth {
			t.Errorf("decoy handed out the real card details")
		}
		if s.available(h) != client.Dollars(50, 0) {
			t.Errorf("available = %s after a decoy, want 50.00", s.available(h))
		}
		txs, err := s.bot.Transactions(h.ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(txs) != 1 || txs[0].Type != "fund" {
			t.Errorf("transactions = %+v, want only the funding", txs)
		}
		// A decoy over the balance is still approved: it moves no money.
		req.AmountCents = 9000
		if got, err := s.bot.Checkout(h.ctx, req); err != nil || !isTrue(got.Approved) {
			t.Errorf("decoy over the balance = %+v, %v; want approved", got, err)
		}
		st, err := s.bot.CheckoutStatus(h.ctx, got.ConfirmationID)
		if err != nil || st.Status != client.PurchaseApproved || textOf(st.MissingDigits) != textOf(got.MissingDigits) {
			t.Errorf("decoy status = %+v, %v; want approved with the same decoy digits", st, err)
		}
	})
}

func TestHeldPurchaseIsApprovedOnceByTheOwner(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("held", client.Dollars(100, 0), nil)
		got, err := s.bot.Checkout(h.ctx, purchase(4000)) // above the $25 threshold
		if err != nil {
			t.Fatal(err)
		}
		if a := h.wire.answer("POST /api/v1/bot/merchant/checkout"); a.status != http.StatusAccepted {
			t.Fatalf("HTTP %d, want 202", a.status)
		}
		raw := h.wire.fields("POST /api/v1/bot/merchant/checkout")
		wantAbsent(t, raw, "missing_digits", "expiry_month", "expiry_year")
		if isTrue(got.Approved) || got.Status != client.PurchasePendingConfirmation || got.ExpiresAt == nil || got.ConfirmationID == "" {
			t.Fatalf("checkout = %+v, want pending_confirmation with expires_at", got)
		}
		if s.available(h) != client.Dollars(60, 0) {
			t.Errorf("available = %s, want 60.00 while $40 is held", s.available(h))
		}
		st, err := s.bot.CheckoutStatus(h.ctx, got.ConfirmationID)
		if err != nil || st.Status != client.PurchasePending || textOf(st.MissingDigits) != "" {
			t.Errorf("status = %+v, %v; want pending without digits", st, err)
		}
		approvals, err := s.owner.Approvals(h.ctx)
		if err != nil || len(approvals) != 1 || approvals[0].Kind != "purchase" || approvals[0].ID != got.ConfirmationID ||
			usdOf(approvals[0].AmountUSD) != 4000 || approvals[0].BotID != s.reg.BotID {
			t.Fatalf("approvals = %+v, %v", approvals, err)
		}
		d, err := s.owner.ApprovePurchase(h.ctx, got.ConfirmationID)
		if err != nil || d.Status != client.PurchaseApproved {
			t.Fatalf("approve = %+v, %v", d, err)
		}
		_, err = s.owner.ApprovePurchase(h.ctx, got.ConfirmationID)
		wantError(t, err, http.StatusConflict, client.CodeAlreadyDecided)
		_, err = s.owner.DenyPurchase(h.ctx, got.ConfirmationID)
		wantError(t, err, http.StatusConflict, client.CodeAlreadyDecided)

		st, err = s.bot.CheckoutStatus(h.ctx, got.ConfirmationID)
		if err != nil || st.Status != client.PurchaseApproved || textOf(st.MissingDigits) != realDigits || textOf(st.ExpiryYear) != realYear {
			t.Errorf("status after approval = %+v, %v; want approved with the card", st, err)
		}
		if s.available(h) != client.Dollars(60, 0) {
			t.Errorf("available = %s, want 60.00 after capture", s.available(h))
		}
		txs, _ := s.bot.Transactions(h.ctx, 0)
		if len(txs) != 2 || txs[0].Type != "spend" || usdOf(txs[0].AmountUSD) != -4000 || usdOf(*txs[0].BalanceAfterUSD) != client.Dollars(60, 0) {
			t.Errorf("transactions = %+v, want one spend of -40.00", txs)
		}
		wantEvents(t, h.events(s.reg.BotID), "purchase.approved", "wallet.spend.authorized")

		// Another owner sees the purchase as missing.
		stranger, _ := h.signup(uniqueEmail("stranger"))
		_, err = stranger.ApprovePurchase(h.ctx, got.ConfirmationID)
		wantError(t, err, http.StatusNotFound, client.CodeNotFound)
	})
}

func TestDeniedPurchaseReleasesItsHold(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("denied", client.Dollars(100, 0), func(g *client.Guardrails) { g.ApprovalMode = "ask_for_everything" })
		got, err := s.bot.Checkout(h.ctx, purchase(500))
		if err != nil || got.Status != client.PurchasePendingConfirmation {
			t.Fatalf("checkout = %+v, %v; ask_for_everything must hold", got, err)
		}
		if d, err := s.owner.DenyPurchase(h.ctx, got.ConfirmationID); err != nil || d.Status != client.PurchaseDenied {
			t.Fatalf("deny = %+v, %v", d, err)
		}
		if s.available(h) != client.Dollars(100, 0) {
			t.Errorf("available = %s, want the hold released", s.available(h))
		}
		st, _ := s.bot.CheckoutStatus(h.ctx, got.ConfirmationID)
		if st.Status != client.PurchaseDenied || textOf(st.MissingDigits) != "" {
			t.Errorf("status = %+v, want denied without digits", st)
		}
		txs, _ := s.bot.Transactions(h.ctx, 0)
		if len(txs) != 1 {
			t.Errorf("transactions = %+v, want only the funding", txs)
		}
		wantEvents(t, h.events(s.reg.BotID), "purchase.rejected")
	})
}

func TestCheckoutStatusOfUnknownConfirmationIsNotFound(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("poller", 0, nil)
		_, err := s.bot.CheckoutStatus(h.ctx, "chk_0000000000000000")
		wantError(t, err, http.StatusNotFound, client.CodeNotFound)
		_, err = s.bot.CheckoutStatus(h.ctx, "")
		wantError(t, err, http.StatusBadRequest, client.CodeValidation)
	})
}

func TestTaskIsHandedOutOnceAndCompletedByItsCheckout(t *testing.T) {
	forEachEngine(t, testserver.Options{}, func(t *testing.T, h *harness) {
		s := h.shopper("tasked", client.Dollars(100, 0), nil)
		none, err := s.bot.NextTask(h.ctx)
		if err != nil || none.HasTask || none.Message == "" {
			t.Fatalf("next task = %+v, %v; want none with a message", none, err)
		}
		taskID, err := s.owner.CreateTask(h.ctx, s.reg.BotID, client.NewTask{MerchantName: "Acme", MerchantURL: "https://acme.com",
			ItemName: "Paper", AmountCents: 1250, Category: wire.Ptr("office")})
		if err != nil {
			t.Fatal(err)
		}
		task, err := s.bot.NextTask(h.ctx)
		if err != nil || !task.HasTask || textOf(task.TaskID) != taskID || textOf(task.TaskType) != "purchase" || task.Instructions == nil ||
			task.Instructions.AmountCents != 1250 || task.Instructions.ItemName != "Paper" {
			t.Fatalf("next task = %+v, %v", task, err)
		}
		if again, _ := s.bot.NextTask(h.ctx); again.HasTask {
			t.Errorf("the same task was handed out twice")
		}
		req := purchase(1250)
		req.TaskID = wire.Ptr(taskID)
		if _, err := s.bot.Checkout(h.ctx, req); err != nil {
			t.Fatal(err)
		}
		_, err = s.bot.Checkout(h.ctx, req)
		wantError(t, err, http.StatusConflict, client.CodeTaskAlreadyCompleted)
		req.TaskID = wire.Ptr("task_0000000000000000")
		_, err = s.bot.Checkout(h.ctx, req)
		wantError(t, err, http.StatusNotFound, client.CodeNotFound)
	})
}
