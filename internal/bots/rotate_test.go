package bots

import (
	"testing"

	"github.com/botpay/botpay/internal/botpay"
)

func TestRotationRefusalDecidesWhoMayRotate(t *testing.T) {
	t.Parallel()
	live := keyFacts{found: true, current: "current", owner: "own_1"}
	frozen := live
	frozen.frozen = true
	cases := []struct {
		name string
		k    RotateKey
		f    keyFacts
		want string // error code, "" for allowed
	}{
		{"owner rotates their bot", RotateKey{OwnerID: "own_1"}, live, ""},
		{"owner rotates a frozen bot", RotateKey{OwnerID: "own_1"}, frozen, ""},
		{"another owner", RotateKey{OwnerID: "own_2"}, live, botpay.CodeNotFound},
		{"no such bot", RotateKey{OwnerID: "own_1"}, keyFacts{}, botpay.CodeNotFound},
		{"bot with its current key", RotateKey{PresentedKeyHash: "current"}, live, ""},
		{"bot with a previous key", RotateKey{PresentedKeyHash: "previous"}, live, botpay.CodeKeySuperseded},
		{"frozen bot", RotateKey{PresentedKeyHash: "current"}, frozen, botpay.CodeWalletFrozen},
	}
	for _, c := range cases {
		err := rotationRefusal(c.k, c.f)
		got := ""
		if e := botpay.AsError(err); e != nil {
			got = e.Code
		} else if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
