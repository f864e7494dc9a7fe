package main

import (
	"context"
	"fmt"
	"strings"
)

func statusVerb() botVerb {
	return botVerb{run: func(ctx context.Context, s *botSession, args []string) error {
		if err := expectArgs(args, 0, "no argument"); err != nil {
			return err
		}
		st, err := s.api.Status(ctx)
		if err != nil {
			return err
		}
		if s.json {
			printRaw(s.out, s.answer.last())
			return nil
		}
		mode := "sandbox (payments are simulated)"
		if st.Livemode != nil && *st.Livemode {
			mode = "live"
		}
		pairs := []string{"bot", st.BotID + " (" + st.BotName + ")", "status", st.Status, "mode", mode,
			"default rail", orDashPtr(st.DefaultRail), "active rails", orDash(strings.Join(st.ActiveRails, ", "))}
		if w := st.Rails.CardWallet; w != nil {
			pairs = append(pairs, "card wallet", fmt.Sprintf("%s, balance %s, held %s", w.Status, usd(w.BalanceUSD), usd(w.HeldUSD)))
		}
		if w := st.Rails.ProcessorWallet; w != nil {
			pairs = append(pairs, "processor wallet", fmt.Sprintf("%s, balance %s, address %s", w.Status, usdNumberOrNone(w.BalanceUSD), w.Address))
		}
		pairs = append(pairs, "pending messages", fmt.Sprint(st.PendingMessages),
			"webhook", fmt.Sprintf("%s (%d failures)", st.WebhookStatus, st.WebhookFailCount))
		if st.Message != nil && *st.Message != "" {
			pairs = append(pairs, "note", *st.Message)
		}
		fields(s.out, pairs...)
		return nil
	}}
}

func walletVerb() botVerb {
	return botVerb{run: func(ctx context.Context, s *botSession, args []string) error {
		if err := expectArgs(args, 0, "no argument"); err != nil {
			return err
		}
		w, err := s.api.WalletCheck(ctx)
		if err != nil {
			return err
		}
		if s.json {
			printRaw(s.out, s.answer.last())
			return nil
		}
		pairs := []string{"wallet", w.WalletStatus, "balance", usd(w.BalanceUSD), "held", usd(w.HeldUSD),
			"card", orDash(w.CardStatus), "pending top-ups", fmt.Sprint(w.PendingTopups), "frozen", fmt.Sprint(w.Frozen)}
		if l := w.SpendingLimits; l != nil {
			pairs = append(pairs, "per transaction", usd(l.PerTransactionUSD),
				"this month", fmt.Sprintf("%s of %s spent, %s left", usd(l.MonthlySpentUSD), usd(l.MonthlyUSD), usd(l.MonthlyRemainingUSD)))
		}
		if w.Message != nil && *w.Message != "" {
			pairs = append(pairs, "note", *w.Message)
		}
		fields(s.out, pairs...)
		return nil
	}}
}
