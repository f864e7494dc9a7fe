package store_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store"
)

// shopper is a claimed bot of owner funded with $1,000, with guardrails
// adjusted from the defaults and one active card (profile 1, $1,000 a
// month).
func shopper(t *testing.T, st *store.Store, owner botpay.Owner, adjust func(*botpay.Guardrails)) (botpay.Bot, botpay.Card) {
	t.Helper()
	b := claimedBot(t, st, owner)
	if _, err := st.Fund(ctx, owner.ID, b.ID, 100000, "test"); err != nil {
		t.Fatal(err)
	}
	g := botpay.DefaultGuardrails(st.Clock().Now())
	adjust(&g)
	if err := spendingOf(st).ReplaceGuardrails(ctx, owner.ID, b.ID, g); err != nil {
		t.Fatal(err)
	}
	c := botpay.Card{ID: botpay.NewID("card_"), BotID: b.ID, Name: "card", Status: botpay.CardActive, RealProfileIndex: 1,
		Profiles:  []botpay.PaymentProfile{{Index: 1, AllowanceDuration: botpay.AllowanceMonth, Allowance: 100000}},
		CreatedAt: st.Clock().Now()}
	if err := spendingOf(st).AddCard(ctx, owner.ID, c, map[int][]byte{1: []byte("sealed")}); err != nil {
		t.Fatal(err)
	}
	return b, c
}

// sweepOnReplicas runs sweep on every replica, two workers each, one item
// at a time until nothing is left, and returns how many items they swept
// in all.
func sweepOnReplicas(t *testing.T, replicas []*store.Store, sweep func(*store.Store, context.Context, int) (int, error)) int64 {
	t.Helper()
	var total atomic.Int64
	var wg sync.WaitGroup
	for _, st := range replicas {
		for range 2 {
			wg.Go(func() {
				for {
					n, err := sweep(st, ctx, 1)
					if err != nil {
						t.Error(err)
						return
					}
					total.Add(int64(n))
					if n == 0 {
						return
					}
				}
			})
		}
	}
	wg.Wait()
	return total.Load()
}
