package app

import (
	"context"
	"sort"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/spending"
)

// Read use cases of the owner's pages: the sections of a bot's
// page, the owner's overview and the e-mail decision page. Each checks
// that the bot or record belongs to the owner; none changes anything.

// ChartDays is how many days the bot pages' charts cover.
const ChartDays = 30

// LedgerEntry is one money movement of a bot on either rail: the card
// wallet in cents (USD) or the processor wallet in micro-USDC.
type LedgerEntry struct {
	Rail         string // botpay.RailCardWallet or botpay.RailProcessorWallet
	Type         string
	Description  string
	USD          botpay.Money // card wallet
	USDC         botpay.Micro // processor wallet
	BalanceAfter *botpay.Money
	USDCAfter    botpay.Micro
	CreatedAt    time.Time
}

// BotSpendingView is the spending section of a bot's page.
type BotSpendingView struct {
	Days       []botpay.DaySpending // ChartDays entries, oldest first
	Categories []spending.CategorySpending
	Purchases  []botpay.Purchase
	Ledger     []LedgerEntry // both rails, newest first
	MoreLedger bool
	Tasks      []botpay.Task
	Topups     []botpay.TopupRequest
}

// BotSpending reads the spending section: the charts' sums, recent
// purchases, and the last ledgerLimit movements of every rail.
func (d Dashboard) BotSpending(ctx context.Context, bot botpay.Bot, ledgerLimit int) (BotSpendingView, error) {
	s := d.s
	var v BotSpendingView
	var err error
	steps := []func() error{
		func() error { v.Days, err = s.wallets.SpendingByDay(ctx, bot.ID, ChartDays); return err },
		func() error { v.Categories, err = s.spending.SpendingByCategory(ctx, bot, ChartDays); return err },
		func() error { v.Purchases, err = s.spending.RecentPurchases(ctx, bot, 20); return err },
		func() error { v.Ledger, v.MoreLedger, err = s.bothLedgers(ctx, bot, ledgerLimit); return err },
		func() error { v.Tasks, err = s.spending.RecentTasks(ctx, bot, 10); return err },
		func() error { v.Topups, err = s.wallets.TopupRequests(ctx, bot.ID, 10); return err },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return v, err
		}
	}
	return v, nil
}

// bothLedgers merges the card wallet's ledger and the processor wallet's,
// newest first, and says whether there are more than limit entries.
func (s *Service) bothLedgers(ctx context.Context, bot botpay.Bot, limit int) ([]LedgerEntry, bool, error) {
	var out []LedgerEntry
	if bot.Claimed() {
		page, err := s.wallets.Transactions(ctx, bot, botpay.PageRequest{Limit: limit + 1})
		if err != nil {
			return nil, false, err
		}
		for _, t := range page.Items {
			out = append(out, LedgerEntry{Rail: botpay.RailCardWallet, Type: t.Type, Description: t.Description,
				USD: t.Amount, BalanceAfter: t.BalanceAfter, CreatedAt: t.CreatedAt})
		}
	}
	usdc, err := s.payments.ProcessorTransactions(ctx, bot.ID, limit+1)
	if err != nil {
		return nil, false, err
	}
	for _, t := range usdc {
		out = append(out, LedgerEntry{Rail: botpay.RailProcessorWallet, Type: t.Type, Description: t.Description,
			USDC: t.Amount, USDCAfter: t.BalanceAfter, CreatedAt: t.CreatedAt})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CreatedAt.After(out[j].CreatedAt) })
	if len(out) > limit {
		return out[:limit], true, nil
	}
	return out, false, nil
}

// BotSettingsView is the settings section of a bot's page.
type BotSettingsView struct {
	Guardrails  botpay.Guardrails
	Procurement botpay.Procurement
	Rail5Cards  []botpay.Rail5Card
	Deliveries  []botpay.DeliveryRecord
}

// BotSettings reads what the settings section shows besides the cards.
func (d Dashboard) BotSettings(ctx context.Context, owner botpay.Owner, bot botpay.Bot) (BotSettingsView, error) {
	s := d.s
	var v BotSettingsView
	var err error
	if v.Guardrails, err = s.spending.OwnedGuardrails(ctx, owner, bot.ID); err != nil {
		return v, err
	}
	if v.Procurement, err = s.spending.Procurement(ctx, owner, bot.ID); err != nil {
		return v, err
	}
	if v.Rail5Cards, err = s.spending.Rail5Cards(ctx, owner, bot.ID); err != nil {
		return v, err
	}
	v.Deliveries, err = s.notifications.RecentDeliveries(ctx, bot.ID, 20)
	return v, err
}

// EarningByDay sums a bot's confirmed sales per day over ChartDays days.
func (d Dashboard) EarningByDay(ctx context.Context, bot botpay.Bot) ([]botpay.DayAmount, error) {
	s := d.s
	return s.earning.SalesByDay(ctx, bot.ID, ChartDays)
}

// The read models the owner's pages show, named here so that the web
// layer reaches them through app.
type (
	DaySpending      = botpay.DaySpending
	CategorySpending = spending.CategorySpending
	DayAmount        = botpay.DayAmount
	DeliveryRecord   = botpay.DeliveryRecord
)
