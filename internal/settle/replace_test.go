package settle

import (
	"errors"
	"math/big"
	"testing"

	"github.com/botpay/botpay/internal/evm"
)

func TestReplacementFeesRiseEnoughForANodeToTakeThem(t *testing.T) {
	for _, c := range []struct {
		name             string
		oldMax, oldTip   int64
		base, tip        int64
		cap              int64 // 0: none
		wantMax, wantTip int64
		wantErr          error
	}{
		{name: "quiet chain: an eighth more on both", oldMax: 100, oldTip: 10, base: 10, tip: 1, wantMax: 113, wantTip: 12},
		{name: "base fee rose: what the chain asks now", oldMax: 100, oldTip: 10, base: 400, tip: 20, wantMax: 820, wantTip: 20},
		{name: "zero tip still rises", oldMax: 8, oldTip: 0, base: 1, tip: 0, wantMax: 9, wantTip: 1},
		{name: "under the cap", oldMax: 100, oldTip: 10, base: 10, tip: 1, cap: 113, wantMax: 113, wantTip: 12},
		{name: "the cap refuses", oldMax: 100, oldTip: 10, base: 10, tip: 1, cap: 112, wantErr: ErrFeeAboveCap},
	} {
		t.Run(c.name, func(t *testing.T) {
			chain := &Chain{}
			if c.cap > 0 {
				chain.MaxFeePerGas = big.NewInt(c.cap)
			}
			tx := evm.DynamicFeeTx{MaxFeePerGas: big.NewInt(c.oldMax), MaxPriorityFeePerGas: big.NewInt(c.oldTip)}
			maxFee, tip, err := chain.replacementFees(tx, big.NewInt(c.base), big.NewInt(c.tip))
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) {
					t.Fatalf("err = %v, want %v", err, c.wantErr)
				}
				return
			}
			if err != nil || maxFee.Int64() != c.wantMax || tip.Int64() != c.wantTip {
				t.Fatalf("fees = %v / %v (%v), want %d / %d", maxFee, tip, err, c.wantMax, c.wantTip)
			}
		})
	}
}
