package app

import (
	"context"

	"github.com/botpay/botpay/internal/botpay"
)

// MaxAckIDs bounds one acknowledgement request.
const MaxAckIDs = 1000

// PendingMessages pages through the bot's staged events, oldest first.
func (s *Service) PendingMessages(ctx context.Context, bot botpay.Bot, page botpay.PageRequest) (botpay.Page[botpay.PendingMessage], error) {
	return s.store.PendingMessages(ctx, bot.ID, page)
}

// AckMessages acknowledges staged events so they are not handed out again.
// Duplicate ids are acknowledged once.
func (s *Service) AckMessages(ctx context.Context, bot botpay.Bot, ids []int64) (acked, notFound []int64, err error) {
	if len(ids) > MaxAckIDs {
		return nil, nil, botpay.ValidationError(map[string]string{"message_ids": "must hold at most " + itoa(MaxAckIDs) + " ids"})
	}
	seen := make(map[int64]bool, len(ids))
	unique := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			unique = append(unique, id)
		}
	}
	return s.store.AckMessages(ctx, bot.ID, unique)
}
