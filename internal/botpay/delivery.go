package botpay

// WebhookStatuses are every webhook health state, so that a rule over them
// can be written out for each one (the outbox's staging SQL is).
var WebhookStatuses = []string{WebhookActive, WebhookDegraded, WebhookUnreachable, WebhookNone}

// DeliveryTarget is what decides how an event reaches its bot: the
// webhook's health and whether the bot has a callback URL or a managed
// tunnel.
type DeliveryTarget struct {
	WebhookStatus string
	CallbackURL   bool // a callback URL is set
	TunnelToken   bool // a managed-tunnel token is set
}

// AttemptsDelivery is the central-dispatch rule: an event is posted to its
// bot when the webhook is neither unreachable nor none and there is
// somewhere to post it; otherwise it is only staged as a pending message.
// The outbox applies it when an event is written and the dispatcher again
// when it claims one, since health may change in between: both read this
// one function.
func AttemptsDelivery(t DeliveryTarget) bool {
	if t.WebhookStatus == WebhookUnreachable || t.WebhookStatus == WebhookNone {
		return false
	}
	return t.CallbackURL || t.TunnelToken
}
