package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/metrics"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// scrape reads the exposition text of m.
func scrape(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	return string(body)
}

// wantSample fails unless the scrape has a sample line starting with
// series whose value is not zero.
func wantSample(t *testing.T, text, series string) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, series+" ") && !strings.HasSuffix(line, " 0") {
			return
		}
	}
	t.Errorf("no non-zero sample %s in the scrape", series)
}

// The metric families move with traffic: requests by route pattern and
// status, checkout decisions (approved, held, declined with its code),
// webhook attempts and lag, outbox depth, webhook health and the pools.
func TestMetricsFamiliesMoveWithTraffic(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		db := storetest.Open(t, d, nil)
		m := metrics.New(storetest.OutboxOf(db.Store))
		opts := delivering
		opts.DB, opts.Observer, opts.Events.Observer = db, m, m
		h := start(t, d, opts)
		var delivered atomic.Int64
		rcv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { delivered.Add(1) }))
		defer rcv.Close()
		s := h.shopper("metered", client.Dollars(100, 0), nil)
		if _, err := s.bot.UpdateProfile(h.ctx, rcv.URL+"/hook"); err != nil {
			t.Fatal(err)
		}
		for _, cents := range []int64{500, 5000, 50000} { // approved, held, over the $100 limit
			s.bot.Checkout(h.ctx, purchase(cents))
		}
		// The receiver counts a delivery before it answers, and the
		// dispatcher records the attempt once it has read the answer.
		attempt := `botpay_webhook_delivery_attempts_total{outcome="delivered"} `
		text := ""
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if text = scrape(t, m); delivered.Load() > 0 && strings.Contains(text, attempt) {
				break
			}
		}
		for _, series := range []string{
			`botpay_http_requests_total{method="POST",route="POST /api/v1/bots/register",status="201"}`,
			`botpay_http_request_duration_seconds_count{route="POST /api/v1/bot/merchant/checkout"}`,
			`botpay_checkout_decisions_total{code="",decision="approved"}`,
			`botpay_checkout_decisions_total{code="",decision="held"}`,
			`botpay_checkout_decisions_total{code="card_guardrail_violation",decision="declined"}`,
			`botpay_webhook_delivery_attempts_total{outcome="delivered"}`,
			`botpay_webhook_delivery_lag_seconds_count`,
			`botpay_webhook_health_bots{status="active"}`,
			`botpay_db_connections_max{pool="write"}`,
		} {
			wantSample(t, text, series)
		}
		if !strings.Contains(text, "botpay_outbox_depth ") || !strings.Contains(text, "botpay_db_scrape_failed 0") {
			t.Errorf("scrape lacks the outbox depth or reports a failed database read:\n%s", text)
		}
		if strings.Contains(text, s.reg.BotID) {
			t.Errorf("a bot id became a label: series must not grow with data")
		}
	})
}
