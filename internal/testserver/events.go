package testserver

import (
	"context"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/notifications"
)

// startDispatcher runs the event dispatcher until the test ends.
func (s *Server) startDispatcher(t testing.TB, opts Options) {
	cfg := opts.Events
	cfg.DB, cfg.Outbox, cfg.Sealer, cfg.AllowPrivate, cfg.Tunnel = s.Store.Kernel(), s.Store.Outbox(), s.Sealer, !opts.WebhookGuard, s.Tunnels
	if cfg.Poll == 0 {
		cfg.Poll = 10 * time.Millisecond
	}
	s.Dispatcher = notifications.New(cfg)
	stop := s.Dispatcher.Start(context.Background())
	t.Cleanup(stop)
}
