package app

import "context"

// Idempotency keys (the api's idempotent middleware) are records of the
// store; these use cases are their only way out of it, so the HTTP layer
// never holds the store.

// BeginIdempotent claims (scope, key) for a request whose body hashes to
// requestHash. It returns the sealed first response when the key already
// completed with the same body, and nil when the caller should run the
// request and then finish, abandon or hold the key.
func (s *Service) BeginIdempotent(ctx context.Context, scope, key, requestHash string) (sealedReplay []byte, err error) {
	replay, err := s.store.BeginIdempotent(ctx, scope, key, requestHash)
	if err != nil || replay == nil {
		return nil, err
	}
	return replay.SealedResponse, nil
}

// FinishIdempotent stores the sealed first response of (scope, key).
func (s *Service) FinishIdempotent(ctx context.Context, scope, key string, status int, sealed []byte) error {
	return s.store.FinishIdempotent(ctx, scope, key, status, sealed)
}

// AbandonIdempotent frees (scope, key) so a retry runs the request again.
func (s *Service) AbandonIdempotent(ctx context.Context, scope, key string) error {
	return s.store.AbandonIdempotent(ctx, scope, key)
}

// HoldIdempotent keeps (scope, key) refused for the idempotency window: the
// request's outcome is unknown, so it must neither replay nor run again.
func (s *Service) HoldIdempotent(ctx context.Context, scope, key string) error {
	return s.store.HoldIdempotent(ctx, scope, key)
}

// Ping says whether the database answers (readiness).
func (s *Service) Ping(ctx context.Context) error { return s.store.Ping(ctx) }
