package app

import (
	"context"
	"sort"
	"time"

	"github.com/botpay/botpay/internal/botpay"
)

// BotSummary is one bot on the owner's overview.
type BotSummary struct {
	OwnedBot
	Wallet     *botpay.WalletView // nil before the claim
	LowBalance botpay.Money       // the bot's low-balance threshold
	Pending    int                // requests of this bot awaiting a decision
}

// Available is the card wallet's balance less its holds.
func (b BotSummary) Available() botpay.Money {
	if b.Wallet == nil {
		return 0
	}
	return b.Wallet.Wallet.Available()
}

// IsLow says the bot's available balance is below its threshold.
func (b BotSummary) IsLow() bool { return b.Wallet != nil && b.Available() < b.LowBalance }

// WebhookFailing says the bot's webhook is degraded or unreachable.
func (b BotSummary) WebhookFailing() bool {
	return b.Bot.WebhookStatus != "" && b.Bot.WebhookStatus != botpay.WebhookActive && b.Bot.WebhookStatus != botpay.WebhookNone
}

// OwnerHomeView is the owner's overview: what needs a decision first, then
// totals across bots, low balances and failing webhooks.
type OwnerHomeView struct {
	Approvals []Approval // soonest to expire first
	Bots      []BotSummary
	Balance   botpay.Money
	Held      botpay.Money
	Spent     botpay.Money // this UTC month, holds included
	Low       []BotSummary
	Failing   []BotSummary
}

// OwnerHome reads the owner's overview.
func (d Dashboard) OwnerHome(ctx context.Context, owner botpay.Owner) (OwnerHomeView, error) {
	s := d.s
	var v OwnerHomeView
	approvals, err := allPages(func(pr botpay.PageRequest) (botpay.Page[Approval], error) { return s.Approvals(ctx, owner, pr) })
	if err != nil {
		return v, err
	}
	sort.SliceStable(approvals, func(i, j int) bool { return ApprovalExpiry(approvals[i]).Before(ApprovalExpiry(approvals[j])) })
	v.Approvals = approvals
	pending := map[string]int{}
	for _, a := range approvals {
		pending[ApprovalBotID(a)]++
	}
	owned, err := allPages(func(pr botpay.PageRequest) (botpay.Page[OwnedBot], error) { return s.BotsOf(ctx, owner, pr) })
	if err != nil {
		return v, err
	}
	thresholds, err := s.wallets.LowBalanceThresholds(ctx, owner.ID)
	if err != nil {
		return v, err
	}
	for _, ob := range owned {
		b := BotSummary{OwnedBot: ob, LowBalance: thresholds[ob.Bot.ID], Pending: pending[ob.Bot.ID]}
		if w, ok, err := s.wallets.WalletView(ctx, ob.Bot.ID); err != nil {
			return v, err
		} else if ok {
			b.Wallet = &w
			v.Balance, v.Held, v.Spent = v.Balance+w.Wallet.Balance, v.Held+w.Wallet.Held, v.Spent+w.MonthlySpent
		}
		v.Bots = append(v.Bots, b)
		if b.IsLow() {
			v.Low = append(v.Low, b)
		}
		if b.WebhookFailing() {
			v.Failing = append(v.Failing, b)
		}
	}
	return v, nil
}

// ApprovalBotID names the bot an approval belongs to.
func ApprovalBotID(a Approval) string {
	if a.Kind == "signing" {
		return a.Signing.BotID
	}
	return a.Purchase.BotID
}

// ApprovalExpiry is when an approval's window closes.
func ApprovalExpiry(a Approval) time.Time {
	if a.Kind == "signing" {
		return time.Time(a.Signing.ExpiresAt)
	}
	return a.Purchase.ExpiresAt
}

// allPages reads a list page by page to its end.
func allPages[T any](list func(botpay.PageRequest) (botpay.Page[T], error)) ([]T, error) {
	var out []T
	pr := botpay.PageRequest{Limit: 100}
	for {
		page, err := list(pr)
		if err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		if page.Next == 0 {
			return out, nil
		}
		pr.After = page.Next
	}
}

// Status is the bot's status as the API reports it.
func (b BotSummary) Status() string { return b.Bot.Status(b.ActiveRails) }
