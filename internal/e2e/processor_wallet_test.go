package e2e

import (
	"context"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
)

// storedWallet reads a bot's processor wallet as stored (the sandbox
// balance and the live reservations); ok is false without one.
func storedWallet(ctx context.Context, svc *app.Service, botID string) (botpay.ProcessorWallet, bool, error) {
	w, err := svc.Payments().ProcessorWallet(ctx, botID)
	if w == nil {
		return botpay.ProcessorWallet{}, false, err
	}
	return *w, true, err
}
