package accounts

import (
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/store/storetest"
)

func TestUniqueViolationsAreTyped(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		s := newService(db.Store)
		o := newOwner(t, s)
		err := s.createOwner(ctx, botpay.Owner{ID: botpay.NewID("own_"), Email: o.Email, CreatedAt: s.clock.Now()}, "h", "t", time.Time{})
		wantCode(t, err, botpay.CodeEmailTaken)
	})
}
