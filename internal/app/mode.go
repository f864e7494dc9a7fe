package app

import (
	"github.com/botpay/botpay/internal/botpay"
)

// errSandboxOnly is what a sandbox payment gets in live mode if it ever
// reaches a use case: the same not-found as the route that is not there.
var errSandboxOnly = botpay.Errorf(botpay.KindNotFound, botpay.CodeNotFound,
	"sandbox payments do not exist in live mode")

// Live reports whether money is real (BOTPAY_MODE=live).
func (s *Service) Live() bool { return s.live }
