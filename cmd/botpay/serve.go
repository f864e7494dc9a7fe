package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/api"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/config"
	"github.com/botpay/botpay/internal/jobs"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/notifications"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/skills"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/web"
)

// deps are the opened dependencies shared by the subcommands.
type deps struct {
	cfg    config.Config
	log    *slog.Logger
	store  *store.Store
	sealer *seal.Sealer
	svc    *app.Service
	// jobs is the one queue of the process: the service enqueues on it and
	// the runner serve starts is woken by it.
	jobs *jobs.Queue
}

func open(ctx context.Context, name string, args []string, logOut io.Writer, extra func(*flag.FlagSet)) (*deps, error) {
	cfg, err := config.Load(name, args, config.Env, extra)
	if err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	log := newLogger(logOut, cfg.LogLevel)
	st, err := store.Open(ctx, store.Options{DatabaseURL: cfg.DatabaseURL, DataDir: cfg.DataDir})
	if err != nil {
		return nil, err
	}
	applied, err := st.Kernel().Migrate(ctx)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("migrate: %w", err)
	}
	if len(applied) > 0 {
		log.Info("migrations applied", "engine", st.Dialect(), "migrations", applied)
	}
	key, err := secretKey(cfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	sealer, err := seal.New(key)
	if err == nil {
		err = agreeOnSecretKey(ctx, st, sealer)
	}
	if err != nil {
		st.Close()
		return nil, err
	}
	chain, domain, err := x402Chain(cfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	if chain != nil {
		log.Info("live settlement", "network", domain.Network(), "chain_id", domain.ChainID, "token", domain.Contract.Hex(),
			"relayer", chain.Relayer().Hex(), "confirmations", chain.Confirmations)
	}
	queue := jobs.NewQueue(st.Kernel())
	svc := app.New(app.Config{Store: st, Jobs: queue, Sealer: sealer, Mail: mailer(cfg), Logger: log, BaseURL: cfg.BaseURL,
		Limits: app.Limits{RegisterPerHour: cfg.RegisterPerHour, CheckoutPerHour: cfg.CheckoutPerHour,
			SignupPerHour: cfg.SignupPerHour, InvoiceMailsPerBotPerDay: cfg.InvoiceMailsPerBot,
			InvoiceMailsPerOwnerPerDay: cfg.InvoiceMailsPerOwner},
		WebhookAllowPrivate: cfg.WebhookAllowPriv, Chain: chain, Domain: domain, Live: cfg.Mode.Live(),
		ExplorerURL: cfg.X402.ExplorerURL, WriteTimeout: httpWriteTimeout})
	return &deps{cfg: cfg, log: log, store: st, sealer: sealer, svc: svc, jobs: queue}, nil
}

// httpWriteTimeout is how long the server may take to answer a request;
// the service answers a buyer whose settlement waits longer before it
// (app.Config.WriteTimeout).
const httpWriteTimeout = 60 * time.Second

// resumeEvery is how often a replica looks for live settlements whose
// request ended before the chain decided (a crash, a restart).
const resumeEvery = 5 * time.Second

func secretKey(cfg config.Config) ([]byte, error) {
	if cfg.SecretKey != "" {
		return seal.ParseKey(cfg.SecretKey)
	}
	return seal.LoadOrCreateKeyFile(cfg.DataDir)
}

// agreeOnSecretKey refuses a key other than the one the database was first
// sealed with: a replica started without BOTPAY_SECRET_KEY would otherwise
// generate its own and answer 500 on everything the others sealed.
func agreeOnSecretKey(ctx context.Context, st *store.Store, sealer *seal.Sealer) error {
	digest := hex.EncodeToString(sealer.DeriveKey("secret key check"))
	recorded, err := st.Kernel().RecordSecretKeyCheck(ctx, digest)
	if err != nil {
		return err
	}
	if recorded != digest {
		return errors.New("the secret key differs from the one this database was first sealed with: " +
			"set BOTPAY_SECRET_KEY to that key, identically on every replica")
	}
	return nil
}

func mailer(cfg config.Config) mail.Sender {
	if c := cfg.SMTP; c.Host != "" {
		return mail.SMTP{Host: c.Host, Port: c.Port, Username: c.Username, Password: c.Password, From: c.From}
	}
	return mail.FileSender{Dir: filepath.Join(cfg.DataDir, "mail"), From: cfg.SMTP.From}
}

func newLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l}))
}

func serve(ctx context.Context, args []string, logOut io.Writer) error {
	tuneGC()
	logs := newLogBuffer(logOut)
	defer logs.Close()
	logOut = logs
	d, err := open(ctx, "botpay serve", args, logOut, nil)
	if err != nil {
		return err
	}
	defer d.store.Close()
	catalogue, err := loadSkills(d)
	if err != nil {
		return err
	}
	obs, stopMetrics, err := startMetrics(d)
	if err != nil {
		return fmt.Errorf("BOTPAY_METRICS_ADDR: %w", err)
	}
	defer stopMetrics()
	pages := web.New(d.svc, d.log, api.ClientIP)
	tunnels := notifications.NewHub(d.store.Kernel())
	handler := api.New(d.svc, api.Config{TrustedProxies: d.cfg.TrustedProxies, Sealer: d.sealer, Logger: d.log,
		Version: version, Pages: pages.Mount, Skills: catalogue, Tunnel: tunnels, Observer: obs.api,
		OutboundAllowPrivate: d.cfg.WebhookAllowPriv})
	srv := &http.Server{
		Addr:              d.cfg.Addr,
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      httpWriteTimeout,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(d.log.Handler(), slog.LevelWarn),
	}
	srv.RegisterOnShutdown(tunnels.Shutdown) // long polls must not hold the shutdown up
	ln, err := net.Listen("tcp", d.cfg.Addr)
	if err != nil {
		return err
	}
	d.log.Info("botpay serving", "addr", ln.Addr().String(), "base_url", d.cfg.BaseURL, "engine", d.store.Dialect(),
		"mode", d.cfg.Mode, "version", version)
	if !d.cfg.Mode.Live() {
		d.log.Warn("sandbox mode: payments are simulated and no real money moves; set BOTPAY_MODE=live for real settlement")
	}
	// Event delivery runs beside the server and stops after it (defers run
	// last-in first-out), recording attempts in flight. Every other
	// background task is a job of one runner, stopped before the store
	// closes.
	runner := jobs.New(jobs.Config{Queue: d.jobs, Logger: d.log})
	stopEvents := notifications.New(notifications.Config{DB: d.store.Kernel(), Outbox: d.store.Outbox(), Sealer: d.sealer, AllowPrivate: d.cfg.WebhookAllowPriv,
		Tunnel: tunnels, Logger: d.log, Observer: obs.events, Jobs: runner}).Start(context.WithoutCancel(ctx))
	defer stopEvents()
	d.svc.RegisterJobs(runner, app.JobIntervals{Expiry: 15 * time.Second, Resume: resumeEvery, MailDigests: 15 * time.Second})
	defer runner.Start(ctx)()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	d.log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	d.log.Info("stopped")
	return nil
}

// loadSkills reads the vendor catalogue with BOTPAY_SKILLS_DIR's overrides;
// a broken file stops the start-up rather than serving a partial catalogue.
func loadSkills(d *deps) (*skills.Catalogue, error) {
	catalogue, err := skills.Load(d.cfg.SkillsDir)
	if err != nil {
		return nil, fmt.Errorf("BOTPAY_SKILLS_DIR: %w", err)
	}
	if d.cfg.SkillsDir != "" {
		added, replaced := catalogue.FromFolder()
		d.log.Info("skills folder loaded", "dir", d.cfg.SkillsDir, "vendors", catalogue.Len(), "added", added, "replaced", replaced)
	}
	return catalogue, nil
}
