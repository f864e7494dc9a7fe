package botpay

import (
	"testing"
	"time"
)

func TestPickCheckoutCardRefusesWhatItCannotUse(t *testing.T) {
	t.Parallel()
	profile := PaymentProfile{Index: 1}
	active := Card{ID: "card_a", Status: CardActive, Profiles: []PaymentProfile{profile}}
	other := Card{ID: "card_b", Status: CardActive, Profiles: []PaymentProfile{profile}}
	inactive := Card{ID: "card_c", Status: CardInactive, Profiles: []PaymentProfile{profile}}
	for _, tc := range []struct {
		name    string
		cards   []Card
		cardID  string
		profile int
		want    string // card id, or error code
	}{
		{"the only active card", []Card{inactive, active}, "", 1, "card_a"},
		{"the named card", []Card{active, other}, "card_b", 1, "card_b"},
		{"a card of another bot", []Card{active}, "card_x", 1, CodeCardNotFound},
		{"a named inactive card", []Card{inactive, active}, "card_c", 1, CodeCardNotActive},
		{"no active card", []Card{inactive}, "", 1, CodeCardNotActive},
		{"two active cards and none named", []Card{active, other}, "", 1, CodeCardIDRequired},
		{"a profile the card lacks", []Card{active}, "", 2, CodeInvalidProfile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			card, _, err := PickCheckoutCard(tc.cards, tc.cardID, tc.profile)
			got := card.ID
			if e := AsError(err); e != nil {
				got = e.Code
			}
			if got != tc.want {
				t.Errorf("picked %q (%v), want %q", got, err, tc.want)
			}
		})
	}
}

func TestCheckoutRateLimitRefusesWhileTheQuotathLatestIsInTheWindow(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { v := now.Add(-d); return &v }
	for _, tc := range []struct {
		name      string
		quota     int
		latest    *time.Time
		wantRetry int // 0: admitted
	}{
		{"no limit", 0, at(time.Second), 0},
		{"fewer checkouts than the quota", 3, nil, 0},
		{"the quota-th latest just left the window", 3, at(time.Hour), 0},
		{"the quota-th latest a millisecond inside", 3, at(time.Hour - time.Millisecond), 1},
		{"the quota-th latest ten minutes ago", 3, at(10 * time.Minute), 3000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := CheckoutRateLimit(tc.quota, time.Hour, tc.latest, now)
			got := 0
			if e := AsError(err); e != nil {
				got = e.RetryAfterSeconds
			}
			if got != tc.wantRetry {
				t.Errorf("retry after %d (%v), want %d", got, err, tc.wantRetry)
			}
		})
	}
}
