package botpay

import "testing"

func TestAttemptsDeliveryOnlyToAReachableWebhookWithSomewhereToPost(t *testing.T) {
	cases := []struct {
		status           string
		callback, tunnel bool
		want             bool
	}{
		{WebhookActive, true, false, true},
		{WebhookActive, false, true, true},
		{WebhookActive, true, true, true},
		{WebhookActive, false, false, false},
		{WebhookDegraded, true, false, true},
		{WebhookDegraded, false, true, true},
		{WebhookDegraded, false, false, false},
		{WebhookUnreachable, true, false, false},
		{WebhookUnreachable, false, true, false},
		{WebhookUnreachable, false, false, false},
		{WebhookNone, true, false, false},
		{WebhookNone, false, true, false},
		{WebhookNone, false, false, false},
		{"", true, false, true},
		{"", false, false, false},
	}
	for _, c := range cases {
		got := AttemptsDelivery(DeliveryTarget{WebhookStatus: c.status, CallbackURL: c.callback, TunnelToken: c.tunnel})
		if got != c.want {
			t.Errorf("AttemptsDelivery(%q, callback %v, tunnel %v) = %v, want %v", c.status, c.callback, c.tunnel, got, c.want)
		}
	}
}
