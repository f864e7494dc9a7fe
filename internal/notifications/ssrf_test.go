package notifications_test

import (
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/store/storetest"
)

// With the guard on, deliveries to internal destinations are refused at dial
// time — even to a host name that resolves to 127.0.0.1 — so they count as
// failures (degraded, staged) and the local receiver is never reached.
func TestDeliveriesToInternalAddressesAreRefused(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		w := newWorld(t, db.Store)
		rc := newReceiver(t)
		port := rc.srv.URL[strings.LastIndexByte(rc.srv.URL, ':'):]
		var bots []string
		for _, u := range []string{"http://127.0.0.1" + port + "/hook", "http://10.0.0.1" + port + "/hook",
			"http://169.254.169.254/latest/meta-data/", "http://[::1]" + port + "/hook", "http://localhost" + port + "/hook"} {
			id, _ := w.bot(u) // registered straight in the store: the up-front check is the app's
			bots = append(bots, id)
		}
		d := notifications.New(notifications.Config{DB: db.Store.Kernel(), Outbox: db.Store.Outbox(), Sealer: w.sealer, Poll: 5 * time.Millisecond, RetryBase: time.Millisecond})
		stop := d.Start(t.Context())
		w.waitDone(db.Store, 10*time.Second)
		stop()
		for _, id := range bots {
			if status, fails := w.health(id); status != botpay.WebhookDegraded || fails != 1 {
				t.Errorf("bot %s: health %s/%d, want degraded/1", id, status, fails)
			}
			if len(w.staged(id)) != 1 {
				t.Errorf("bot %s: event not staged", id)
			}
		}
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if len(rc.hits) != 0 {
			t.Fatalf("the local receiver was reached: %v", rc.hits)
		}
	})
}
