// Package metrics exposes botpay's Prometheus metrics (client_golang): the
// families an operator needs to see the service, with labels of low
// cardinality only (route patterns, never paths or ids). The HTTP, app and
// notifications packages report through small interfaces of their own, so only
// this package and cmd/botpay import Prometheus.
package metrics

import (
	"context"
	"database/sql"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/botpay/botpay/internal/notifications"
)

// Source reads the figures only the database knows, at scrape time.
type Source interface {
	OpsStats(ctx context.Context) (notifications.OpsStats, error)
}

// Metrics holds every family; its methods are safe for concurrent use.
type Metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	checkouts   *prometheus.CounterVec
	signings    *prometheus.CounterVec
	deliveries  *prometheus.CounterVec
	deliveryLag prometheus.Histogram
}

// New registers the families; src is read on every scrape (nil: no
// database figures, as in unit tests).
func New(src Source) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "botpay_http_requests_total",
		Help: "HTTP requests by route pattern, method and status code."}, []string{"route", "method", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "botpay_http_request_duration_seconds",
		Help:    "HTTP request latency by route pattern.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10}}, []string{"route"})
	m.checkouts = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "botpay_checkout_decisions_total",
		Help: "Card checkouts by decision: approved, held, declined (with the refusal code) or error."}, []string{"decision", "code"})
	m.signings = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "botpay_signing_decisions_total",
		Help: "x402 signing requests by decision: signed, held, refused (with the code) or error."}, []string{"decision", "code"})
	m.deliveries = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "botpay_webhook_delivery_attempts_total",
		Help: "Webhook delivery attempts by outcome (delivered, failed)."}, []string{"outcome"})
	m.deliveryLag = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "botpay_webhook_delivery_lag_seconds",
		Help:    "Time from an event's commit to its successful delivery.",
		Buckets: []float64{.01, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300, 1800}})
	m.reg.MustRegister(m.requests, m.latency, m.checkouts, m.signings, m.deliveries, m.deliveryLag,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if src != nil {
		m.reg.MustRegister(&dbCollector{src: src})
	}
	return m
}

// Handler serves the registry in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Request counts one answered request. route is the ServeMux pattern,
// "unmatched" when none matched, so a scan of random paths adds no series.
func (m *Metrics) Request(route, method string, status int, took time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route).Observe(took.Seconds())
}

// CheckoutDecided counts a checkout's outcome; code is the refusal's error
// code (a constant of the domain) or empty.
func (m *Metrics) CheckoutDecided(decision, code string) {
	m.checkouts.WithLabelValues(decision, code).Inc()
}

// SigningDecided counts a signing request's outcome, as CheckoutDecided.
func (m *Metrics) SigningDecided(decision, code string) {
	m.signings.WithLabelValues(decision, code).Inc()
}

// DeliveryAttempted counts one webhook attempt; lag is from the event's
// commit, observed for successes only.
func (m *Metrics) DeliveryAttempted(delivered bool, lag time.Duration) {
	if !delivered {
		m.deliveries.WithLabelValues("failed").Inc()
		return
	}
	m.deliveries.WithLabelValues("delivered").Inc()
	m.deliveryLag.Observe(lag.Seconds())
}

// dbCollector turns notifications.OpsStats into gauges at scrape time.
type dbCollector struct{ src Source }

var (
	outboxDepth  = prometheus.NewDesc("botpay_outbox_depth", "Events not yet delivered, staged or given up.", nil, nil)
	outboxOldest = prometheus.NewDesc("botpay_outbox_oldest_age_seconds", "Age of the oldest event still in the outbox.", nil, nil)
	webhookBots  = prometheus.NewDesc("botpay_webhook_health_bots", "Bots by webhook health.", []string{"status"}, nil)
	poolConns    = prometheus.NewDesc("botpay_db_connections", "Database connections by pool and state.", []string{"pool", "state"}, nil)
	poolMax      = prometheus.NewDesc("botpay_db_connections_max", "Maximum open connections of the pool.", []string{"pool"}, nil)
	poolWaits    = prometheus.NewDesc("botpay_db_wait_total", "Connections waited for, by pool.", []string{"pool"}, nil)
	poolWaitTime = prometheus.NewDesc("botpay_db_wait_seconds_total", "Time spent waiting for a connection, by pool.", []string{"pool"}, nil)
	settlements  = prometheus.NewDesc("botpay_settlements", "x402 settlements in flight by state.", []string{"state"}, nil)
	scrapeFailed = prometheus.NewDesc("botpay_db_scrape_failed", "1 when the database figures could not be read.", nil, nil)
)

func (c *dbCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{outboxDepth, outboxOldest, webhookBots, settlements, poolConns, poolMax, poolWaits, poolWaitTime, scrapeFailed} {
		ch <- d
	}
}

func (c *dbCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := c.src.OpsStats(ctx)
	failed := 0.0
	if err != nil {
		failed = 1 // an unreachable database must not hide the other figures
	}
	ch <- prometheus.MustNewConstMetric(scrapeFailed, prometheus.GaugeValue, failed)
	for pool, s := range st.Pools {
		collectPool(ch, pool, s)
	}
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(outboxDepth, prometheus.GaugeValue, float64(st.OutboxDepth))
	ch <- prometheus.MustNewConstMetric(outboxOldest, prometheus.GaugeValue, st.OutboxOldest.Seconds())
	for status, n := range st.WebhookHealth {
		ch <- prometheus.MustNewConstMetric(webhookBots, prometheus.GaugeValue, float64(n), status)
	}
	for _, state := range []string{"settling", "submitted"} {
		ch <- prometheus.MustNewConstMetric(settlements, prometheus.GaugeValue, float64(st.Settlements[state]), state)
	}
}

func collectPool(ch chan<- prometheus.Metric, pool string, s sql.DBStats) {
	ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(s.InUse), pool, "in_use")
	ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(s.Idle), pool, "idle")
	ch <- prometheus.MustNewConstMetric(poolMax, prometheus.GaugeValue, float64(s.MaxOpenConnections), pool)
	ch <- prometheus.MustNewConstMetric(poolWaits, prometheus.CounterValue, float64(s.WaitCount), pool)
	ch <- prometheus.MustNewConstMetric(poolWaitTime, prometheus.CounterValue, s.WaitDuration.Seconds(), pool)
}
