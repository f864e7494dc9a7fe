package app

import (
	"context"
	"errors"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/settle"
	"github.com/botpay/botpay/internal/x402"
)

// errSandboxOnly is what a sandbox payment gets in live mode if it ever
// reaches a use case: the same not-found as the route that is not there.
var errSandboxOnly = botpay.Errorf(botpay.KindNotFound, botpay.CodeNotFound,
	"sandbox payments do not exist in live mode")

// Live reports whether money is real (BOTPAY_MODE=live).
func (s *Service) Live() bool { return s.live }

// noChain is the settler of a live service built without one: it refuses
// every payment rather than fall back to the sandbox, which would record
// sales nobody paid for.
type noChain struct{}

func (noChain) Settle(context.Context, x402.Payment) (settle.Result, error) {
	return settle.Result{}, errors.New("live mode without a chain settler")
}
