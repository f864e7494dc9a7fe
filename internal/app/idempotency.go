package app

import (
	"context"

	"github.com/botpay/botpay/internal/idempotency"
)

// Idempotency is the idempotency keys of requests (the api's idempotent
// middleware), so the HTTP layer never holds the database.
func (s *Service) Idempotency() *idempotency.Keys { return s.idempotency }

// Ping says whether the database answers (readiness).
func (s *Service) Ping(ctx context.Context) error { return s.store.Ping(ctx) }
