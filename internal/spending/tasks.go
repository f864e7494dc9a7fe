package spending

import (
	"context"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/validate"
)

// NewTaskInput is the body of POST /api/v1/owner/bots/{bot_id}/tasks.
type NewTaskInput struct {
	BotID        string
	MerchantName string
	MerchantURL  string
	ItemName     string
	AmountCents  *int
	Category     string
	ProfileIndex *int
}

// CreateTask queues a purchase task for an owned, claimed bot (docs/decisions.md).
func (s *Service) CreateTask(ctx context.Context, owner botpay.Owner, in NewTaskInput) (botpay.Task, error) {
	p := validate.Problems{}
	t := botpay.Task{ID: botpay.NewID("task_"), BotID: in.BotID, Status: botpay.TaskQueued, CreatedAt: s.clock.Now(),
		MerchantName: p.Text("merchant_name", in.MerchantName, 1, 200, false),
		MerchantURL:  p.Text("merchant_url", in.MerchantURL, 1, 2048, false),
		ItemName:     p.Text("item_name", in.ItemName, 1, 500, false),
		Category:     strings.ToLower(p.Text("category", in.Category, 0, 50, false)),
		ProfileIndex: in.ProfileIndex}
	if in.AmountCents == nil {
		p.Add("amount_cents", "is required")
	} else if t.Amount = botpay.Money(*in.AmountCents); t.Amount <= 0 || t.Amount > MaxAmount {
		p.Add("amount_cents", "must be from 1 to "+strconv.Itoa(int(MaxAmount)))
	}
	if in.ProfileIndex != nil && (*in.ProfileIndex < 1 || *in.ProfileIndex > MaxProfiles) {
		p.Add("profile_index", "must be from 1 to "+strconv.Itoa(MaxProfiles))
	}
	if err := p.Err(); err != nil {
		return t, err
	}
	return t, s.queueTask(ctx, owner.ID, t)
}

// NextTask hands the bot its oldest queued task; ok is false when there is
// none.
func (s *Service) NextTask(ctx context.Context, bot botpay.Bot) (botpay.Task, bool, error) {
	if !bot.Claimed() {
		return botpay.Task{}, false, botpay.ErrWalletNotActive
	}
	return s.nextTask(ctx, bot.ID)
}
