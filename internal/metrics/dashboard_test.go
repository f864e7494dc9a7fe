package metrics_test

import (
	"context"
	"database/sql"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/metrics"
	"github.com/botpay/botpay/internal/notifications"
)

type fixedStats struct{}

func (fixedStats) OpsStats(context.Context) (notifications.OpsStats, error) {
	return notifications.OpsStats{WebhookHealth: map[string]int64{"active": 1}, Pools: map[string]sql.DBStats{"write": {}}}, nil
}

// Every metric the sample Grafana dashboard queries is one the service
// exports, so the dashboard cannot drift from the code.
func TestGrafanaDashboardQueriesOnlyExportedFamilies(t *testing.T) {
	m := metrics.New(fixedStats{})
	m.Request("GET /x", "GET", 200, 0)
	m.CheckoutDecided("approved", "")
	m.SigningDecided("signed", "")
	m.DeliveryAttempted(true, 0)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	exported := rec.Body.String()
	dashboard, err := os.ReadFile("../../docs/grafana/botpay-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`botpay_[a-z_]+`).FindAllString(string(dashboard), -1)
	if len(names) < 10 {
		t.Fatalf("the dashboard names only %d metrics", len(names))
	}
	for _, name := range names {
		if name == "botpay_overview" || strings.HasPrefix(name, "botpay_dashboard") {
			continue
		}
		if !strings.Contains(exported, "\n"+name+"{") && !strings.Contains(exported, "\n"+name+" ") {
			t.Errorf("the dashboard queries %s, which the service does not export", name)
		}
	}
}
