package app

import (
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/egress"
)

// refuseInternal rejects, up front, a callback URL whose host is a loopback,
// private, link-local or metadata address (or such a well-known name) while
// the egress guard is on. Host names are checked again after DNS at every
// delivery, so this only gives the bot an early, clear answer.
func (s *Service) refuseInternal(field, url string) error {
	if s.allowPrivate || url == "" {
		return nil
	}
	if err := egress.CheckURL(url); err != nil {
		return botpay.ValidationError(map[string]string{field: "must not point at a loopback, private, link-local or metadata address"})
	}
	return nil
}
