package metrics

import (
	"context"
	"math/big"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// ChainSource reads the relayer's figures in live mode: its gas balance
// from the node at scrape time, and the transactions this process
// replaced.
type ChainSource interface {
	RelayerGasWei(ctx context.Context) (*big.Int, error)
	ReplacedTransactions() int64
}

// WatchChain adds the relayer's families (live mode).
func (m *Metrics) WatchChain(src ChainSource) {
	m.reg.MustRegister(&chainCollector{src: src})
}

var (
	relayerGas = prometheus.NewDesc("botpay_relayer_gas_wei",
		"The relayer's ether balance in wei, read from the node at scrape time.", nil, nil)
	replaced = prometheus.NewDesc("botpay_relayer_replaced_transactions_total",
		"Stuck relayer transactions (settlements, refunds) this process sent again with higher fees.", nil, nil)
	chainScrapeFailed = prometheus.NewDesc("botpay_chain_scrape_failed",
		"1 when the relayer's gas balance could not be read from the node.", nil, nil)
)

type chainCollector struct{ src ChainSource }

func (c *chainCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- relayerGas
	ch <- replaced
	ch <- chainScrapeFailed
}

func (c *chainCollector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(replaced, prometheus.CounterValue, float64(c.src.ReplacedTransactions()))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	wei, err := c.src.RelayerGasWei(ctx)
	if err != nil || wei == nil {
		// An unknown balance is left out rather than exported as 0, which
		// would page someone about an empty relayer that may be full.
		ch <- prometheus.MustNewConstMetric(chainScrapeFailed, prometheus.GaugeValue, 1)
		return
	}
	ch <- prometheus.MustNewConstMetric(chainScrapeFailed, prometheus.GaugeValue, 0)
	gas, _ := new(big.Float).SetInt(wei).Float64()
	ch <- prometheus.MustNewConstMetric(relayerGas, prometheus.GaugeValue, gas)
}
