package metrics_test

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/metrics"
)

type relayerFigures struct {
	gas      *big.Int
	err      error
	replaced int64
}

func (f relayerFigures) RelayerGasWei(context.Context) (*big.Int, error) { return f.gas, f.err }
func (f relayerFigures) ReplacedTransactions() int64                     { return f.replaced }

// TestMetricsExportTheRelayersGasAndReplacedTransactions: the relayer's gas
// balance is a gauge in wei and replacements a counter; a node that does
// not answer leaves the gauge out (never 0) and says the read failed.
func TestMetricsExportTheRelayersGasAndReplacedTransactions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		src      relayerFigures
		want     []string
		wantNone string
	}{
		{"node answers", relayerFigures{gas: big.NewInt(2_500_000_000_000_000), replaced: 3}, []string{
			"botpay_relayer_gas_wei 2.5e+15", "botpay_relayer_replaced_transactions_total 3", "botpay_chain_scrape_failed 0"}, ""},
		{"node down", relayerFigures{err: errors.New("connection refused"), replaced: 1}, []string{
			"botpay_relayer_replaced_transactions_total 1", "botpay_chain_scrape_failed 1"}, "botpay_relayer_gas_wei"},
	} {
		m := metrics.New(nil)
		m.WatchChain(tc.src)
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		body := rec.Body.String()
		for _, line := range tc.want {
			if !strings.Contains(body, "\n"+line+"\n") {
				t.Errorf("%s: no line %q in\n%s", tc.name, line, grepBotpay(body))
			}
		}
		if tc.wantNone != "" && strings.Contains(body, "\n"+tc.wantNone+" ") {
			t.Errorf("%s: %s exported while unknown", tc.name, tc.wantNone)
		}
	}
}

func grepBotpay(body string) string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, "botpay_") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
