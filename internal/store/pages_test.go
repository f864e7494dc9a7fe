package store_test

import (
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/bots"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// stagingBot is a claimed bot without a usable webhook: each of its events
// is a pending message as soon as it commits, so every funding adds a
// ledger row and a message.
func stagingBot(t *testing.T, st *store.Store, owner botpay.Owner) botpay.Bot {
	t.Helper()
	token := botpay.NewClaimToken()
	b := botpay.Bot{ID: botpay.NewID("bot_"), Name: botpay.NewID("bot"), OwnerEmail: owner.Email,
		BotType: botpay.DefaultBotType, WebhookStatus: botpay.WebhookNone, CreatedAt: st.Clock().Now()}
	if _, err := registry(st).RegisterBot(ctx, bots.NewBot{Bot: b, APIKeyHash: botpay.Digest(botpay.NewSecret(botpay.APIKeyPrefix)),
		ClaimTokenHash: botpay.Digest(token), WebhookSecretSealed: []byte("sealed"),
		Limit: bots.Limit{Bucket: "register:test", Max: 0}}); err != nil {
		t.Fatalf("register: %v", err)
	}
	claimed, err := registry(st).ClaimBot(ctx, owner.ID, botpay.Digest(token))
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	return claimed
}

// pageThrough walks a list from its first page to its last, limit items a
// page, calling between after each page, and returns every id it saw in
// order.
func pageThrough[T any](t *testing.T, limit int, read func(botpay.PageRequest) (botpay.Page[T], error), id func(T) int64,
	between func()) []int64 {
	t.Helper()
	var seen []int64
	page := botpay.PageRequest{Limit: limit}
	for {
		p, err := read(page)
		if err != nil {
			t.Fatalf("page after %d: %v", page.After, err)
		}
		if len(p.Items) > limit {
			t.Fatalf("page of %d items, limit %d", len(p.Items), limit)
		}
		for _, item := range p.Items {
			seen = append(seen, id(item))
		}
		if p.Next == 0 {
			return seen
		}
		page.After = p.Next
		between()
	}
}

// Paging while rows are added concurrently (other transactions committing
// between and during page reads) sees every row that existed when paging
// began exactly once and never any row twice, newest-first (the ledger)
// and oldest-first (pending messages) alike. Positions are insertion
// numbers that never move, so a new row can neither repeat an item nor
// push one the reader has not seen out of its way, which OFFSET would do.
func TestPagingWhileRowsAreAddedSeesEveryRowExactlyOnce(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		st := db.Store
		owner := storetest.NewOwner(t, st)
		bot := stagingBot(t, st, owner)
		fund := func() {
			if _, err := storetest.Wallets(st).Fund(ctx, owner, bot.ID, 100, ""); err != nil {
				t.Errorf("fund: %v", err)
			}
		}
		for range 45 {
			fund()
		}
		before, err := storetest.Wallets(st).Transactions(ctx, bot, botpay.PageRequest{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		messagesBefore, err := pendingMessages(st, bot.ID, botpay.PageRequest{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}

		// A writer funds the bot 60 times without pause while the reader
		// pages (bounded: an oldest-first reader would chase an endless
		// writer forever), and the reader also waits for one funding
		// between every two pages.
		var writer sync.WaitGroup
		writer.Go(func() {
			for range 60 {
				fund()
			}
		})
		ledger := pageThrough(t, 7, func(p botpay.PageRequest) (botpay.Page[botpay.Transaction], error) {
			return storetest.Wallets(st).Transactions(ctx, bot, p)
		}, func(tr botpay.Transaction) int64 { return tr.ID }, fund)
		messages := pageThrough(t, 4, func(p botpay.PageRequest) (botpay.Page[botpay.PendingMessage], error) {
			return pendingMessages(st, bot.ID, p)
		}, func(m botpay.PendingMessage) int64 { return m.ID }, fund)
		writer.Wait()

		wantEachOnce(t, "ledger", ledger, botpay.MapPage(before, func(tr botpay.Transaction) int64 { return tr.ID }).Items, true)
		wantEachOnce(t, "messages", messages, botpay.MapPage(messagesBefore, func(m botpay.PendingMessage) int64 { return m.ID }).Items, false)
	})
}

// wantEachOnce checks that seen holds no id twice, holds every id of
// existing, and runs strictly in one direction.
func wantEachOnce(t *testing.T, list string, seen, existing []int64, newestFirst bool) {
	t.Helper()
	count := map[int64]int{}
	for i, id := range seen {
		count[id]++
		if count[id] > 1 {
			t.Errorf("%s: id %d seen twice", list, id)
		}
		if i > 0 && (seen[i-1] < id) == newestFirst {
			t.Errorf("%s: id %d follows %d, out of order", list, id, seen[i-1])
		}
	}
	for _, id := range existing {
		if count[id] != 1 {
			t.Errorf("%s: id %d, there before paging began, seen %d times", list, id, count[id])
		}
	}
	if len(seen) < len(existing) {
		t.Errorf("%s: %d rows seen, %d existed before paging", list, len(seen), len(existing))
	}
}
