package spending_test

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Two tasks queued in the same millisecond are handed out in the order they
// were queued (docs/api.md: oldest first). Ordering by created_at fell
// back to the random task ids on a tie, so six tasks in one millisecond came
// out shuffled in all but 1 of 720 runs.
func TestTasksQueuedInTheSameMillisecondAreHandedOutInQueueOrder(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		// the clock does not move: every task shares one millisecond
		clock := botpay.NewManualClock(time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC))
		st := storetest.Open(t, d, clock).Store
		owner := storetest.NewOwner(t, st)
		bot := storetest.ClaimedBot(t, st, owner)
		var queued []string
		for i := range 6 {
			task := botpay.Task{ID: botpay.NewID("task_"), BotID: bot.ID, MerchantName: "Acme", MerchantURL: "https://acme.example",
				ItemName: "item " + string(rune('A'+i)), Amount: 100, CreatedAt: clock.Now()}
			if err := spendingOf(st).QueueTask(ctx, owner.ID, task); err != nil {
				t.Fatalf("queue task %d: %v", i, err)
			}
			queued = append(queued, task.ID)
		}
		for i, want := range queued {
			got, ok, err := spendingOf(st).NextTask(ctx, bot)
			if err != nil || !ok || got.ID != want {
				t.Fatalf("task %d handed out = %s (ok %v, err %v), want %s; queued %v", i, got.ID, ok, err, want, queued)
			}
		}
	})
}
