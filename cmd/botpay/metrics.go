package main

import (
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/botpay/botpay/internal/api"
	"github.com/botpay/botpay/internal/metrics"
	"github.com/botpay/botpay/internal/notifications"
)

// observers are where the server and the dispatcher report; both nil when
// metrics are off.
type observers struct {
	api    api.Observer
	events notifications.Observer
}

// startMetrics serves /metrics on BOTPAY_METRICS_ADDR, a listener of its
// own so that it is never exposed where the API is. stop closes it.
func startMetrics(d *deps) (observers, func(), error) {
	if d.cfg.MetricsAddr == "" {
		return observers{}, func() {}, nil
	}
	m := metrics.New(notifications.NewOutboxReader(d.store.Kernel()))
	if d.cfg.Mode.Live() {
		m.WatchChain(d.svc.Payments())
	}
	ln, err := net.Listen("tcp", d.cfg.MetricsAddr)
	if err != nil {
		return observers{}, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.log.Error("metrics listener stopped", "err", err)
		}
	}()
	d.log.Info("metrics serving", "addr", ln.Addr().String())
	return observers{api: m, events: m}, func() { srv.Close() }, nil
}
