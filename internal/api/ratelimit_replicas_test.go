package api_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// TestRegistrationLimitIsSharedByReplicas: the limit of 3 registrations per
// address per hour holds across two servers on one database, because every
// limit window lives in the database (docs/decisions.md, "Rate limits live in
// the database and name themselves"), whether the requests alternate or race.
func TestRegistrationLimitIsSharedByReplicas(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		t.Run("alternating", func(t *testing.T) {
			a := testserver.Start(t, d, testserver.Options{})
			b := a.Replica(t, testserver.Options{})
			servers := []*testserver.Server{a, b}
			for i := range 7 {
				r := do(t, servers[i%2], http.MethodPost, registerPath, botBody("owner@example.com"))
				if i < 3 {
					wantStatus(t, r, http.StatusCreated)
				} else {
					wantError(t, r, http.StatusTooManyRequests, "rate_limited")
				}
			}
			wantRows(t, a, "bots", 3)
		})

		t.Run("concurrent", func(t *testing.T) {
			a := testserver.Start(t, d, testserver.Options{})
			b := a.Replica(t, testserver.Options{})
			servers := []*testserver.Server{a, b}
			const n = 10
			results := make([]response, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				body := botBody("owner@example.com")
				wg.Go(func() {
					results[i], errs[i] = send(servers[i%2], http.MethodPost, registerPath, body)
				})
			}
			wg.Wait()
			created, limited := 0, 0
			for i, r := range results {
				if errs[i] != nil {
					t.Fatalf("request %d: %v", i, errs[i])
				}
				switch r.status {
				case http.StatusCreated:
					created++
				case http.StatusTooManyRequests:
					limited++
					wantError(t, r, http.StatusTooManyRequests, "rate_limited")
					if r.body["retry_after_seconds"] != float64(3600) {
						t.Errorf("retry_after_seconds: %s", r)
					}
				default:
					t.Errorf("request %d: %s", i, r)
				}
			}
			if created != 3 || limited != n-3 {
				t.Fatalf("%d created and %d limited, want 3 and %d", created, limited, n-3)
			}
			wantRows(t, a, "bots", 3)
		})
	})
}
