package payments_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/payments"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/x402"
)

// gatedChain answers each balance read with the next value sent on
// answers, after telling entered that a read reached the node.
type gatedChain struct {
	entered chan struct{}
	answers chan int64
}

func (c gatedChain) TokenBalance(context.Context, x402.Address) (*big.Int, error) {
	c.entered <- struct{}{}
	return big.NewInt(<-c.answers), nil
}

// TestABalanceReadOvertakenByAForgetIsNotCached: a refund recorded while
// a balance read was at the node forgets the cached balance; the read
// still answers its caller, but the next read asks the node again instead
// of reusing a balance read before the refund's record.
func TestABalanceReadOvertakenByAForgetIsNotCached(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		chain := gatedChain{entered: make(chan struct{}), answers: make(chan int64)}
		overtakenReadIsNotCached(t, payments.New(payments.Deps{DB: db.Store.Kernel(), Chain: chain}), chain)
	})
}

func overtakenReadIsNotCached(t *testing.T, s *payments.Service, chain gatedChain) {
	a, err := x402.ParseAddress("0x00000000000000000000000000000000000000d7")
	if err != nil {
		t.Fatal(err)
	}
	read := func() <-chan botpay.Micro {
		got := make(chan botpay.Micro, 1)
		go func() {
			m, _, err := s.ChainBalanceAt(context.Background(), a)
			if err != nil {
				t.Error(err)
			}
			got <- m
		}()
		return got
	}
	first := read()
	<-chain.entered
	s.ForgetChainBalance(a) // the refund's record is in while the read is at the node
	chain.answers <- 5_000_000
	if m := <-first; m != 5_000_000 {
		t.Fatalf("the overtaken read answered %d", m)
	}
	second := read()
	select {
	case <-chain.entered:
		chain.answers <- 7_000_000
	case m := <-second:
		t.Fatalf("the read after the forget reused the overtaken read's balance %d", m)
	case <-time.After(5 * time.Second):
		t.Fatal("the second read neither asked the node nor answered")
	}
	if m := <-second; m != 7_000_000 {
		t.Fatalf("the second read answered %d, want the node's 7000000", m)
	}
	third := read() // an unovertaken read is cached
	select {
	case m := <-third:
		if m != 7_000_000 {
			t.Fatalf("the cached read answered %d", m)
		}
	case <-chain.entered:
		t.Fatal("a read within the cache's life asked the node again")
	}
}
