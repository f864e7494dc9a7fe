package store_test

import (
	"context"
	"testing"

	"github.com/botpay/botpay/internal/store/storetest"
)

func TestMigrateIsIdempotent(t *testing.T) {
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		applied, err := db.Store.Migrate(context.Background())
		if err != nil {
			t.Fatalf("second migrate: %v", err)
		}
		if len(applied) != 0 {
			t.Fatalf("second migrate applied %v, want nothing", applied)
		}
		if err := db.Store.Ping(context.Background()); err != nil {
			t.Fatalf("ping: %v", err)
		}
	})
}
