package accounts

import (
	"context"
	"errors"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// PairingCode is a fresh pairing code, shown once.
type PairingCode struct {
	Code      string
	ExpiresAt time.Time
}

// CreatePairingCode issues a single-use 6-digit code valid for one hour.
func (s *Service) CreatePairingCode(ctx context.Context, owner botpay.Owner) (PairingCode, error) {
	for attempt := 0; attempt < 10; attempt++ {
		code := botpay.NewPairingCode()
		expires := s.clock.Now().Add(time.Hour)
		err := s.createPairingCode(ctx, owner.ID, botpay.Digest(code), expires, s.limits.PairingPerHour)
		if errors.Is(err, kernel.ErrUnique) {
			continue // collides with another owner's live code
		}
		if err != nil {
			return PairingCode{}, err
		}
		return PairingCode{Code: code, ExpiresAt: expires}, nil
	}
	return PairingCode{}, errors.New("could not draw a free pairing code")
}
