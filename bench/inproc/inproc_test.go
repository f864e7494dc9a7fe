package inproc

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/api"
	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/mail"
	"github.com/botpay/botpay/internal/seal"
	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// parallelism × GOMAXPROCS goroutines call the handler at once, close to
// loadgen's default of 32 workers on a 2-core machine.
const parallelism = 16

// service is the whole service in-process over a fresh database, with one
// funded bot.
type service struct {
	db     *storetest.DB
	app    *app.Service
	sealer *seal.Sealer
	apiKey string
	botID  string
}

// newService wires the service as cmd/botpay's serve does. It is built once
// per engine (not per b.N round) so that PostgreSQL, shared with other users
// of this machine, sees one connection pool, not one per round.
func newService(b *testing.B, d store.Dialect) *service {
	b.Helper()
	db := storetest.Open(b, d, nil)
	key := make([]byte, 32)
	rand.Read(key)
	sealer, err := seal.New(key)
	if err != nil {
		b.Fatal(err)
	}
	svc := app.New(app.Config{Store: db.Store, Sealer: sealer, Mail: &mail.Memory{},
		BaseURL: "http://127.0.0.1:8080", Limits: app.Limits{RegisterPerHour: 1 << 30}})
	s := &service{db: db, app: svc, sealer: sealer}
	s.apiKey, s.botID = fundedBot(b, s.handler(b, "discard"))
	return s
}

// handler is the HTTP handler over the service. logTo is "file" (the JSON
// access log of `botpay serve 2>file`) or "discard".
func (s *service) handler(b *testing.B, logTo string) http.Handler {
	return api.New(s.app, api.Config{Sealer: s.sealer, Logger: newLogger(b, logTo), Version: "bench"})
}

func newLogger(b *testing.B, logTo string) *slog.Logger {
	var w io.Writer = io.Discard
	if logTo == "file" {
		f, err := os.Create(filepath.Join(b.TempDir(), "access.log"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
		w = f
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// fundedBot registers, claims and funds a bot through the handler.
func fundedBot(b *testing.B, h http.Handler) (apiKey, botID string) {
	b.Helper()
	apiKey, botID, ownerToken := claimedBot(b, h, "bench", "bench@example.com")
	call(b, h, "POST", "/api/v1/owner/bots/"+botID+"/fund", ownerToken, `{"amount_usd":1000}`, 200, nil)
	return apiKey, botID
}

// claimedBot registers a bot named name, signs its owner up at email and
// has the owner claim it, all through the handler.
func claimedBot(b *testing.B, h http.Handler, name, email string) (apiKey, botID, ownerToken string) {
	b.Helper()
	var reg struct {
		BotID      string `json:"bot_id"`
		APIKey     string `json:"api_key"`
		ClaimToken string `json:"claim_token"`
	}
	call(b, h, "POST", "/api/v1/bots/register", "", `{"bot_name":"`+name+`","owner_email":"`+email+`"}`, 201, &reg)
	var owner struct {
		Token string `json:"token"`
	}
	call(b, h, "POST", "/api/v1/owner/signup", "", `{"email":"`+email+`","password":"bench-password-1"}`, 201, &owner)
	call(b, h, "POST", "/api/v1/owner/bots/claim", owner.Token, `{"claim_token":"`+reg.ClaimToken+`"}`, 200, nil)
	return reg.APIKey, reg.BotID, owner.Token
}

func call(b *testing.B, h http.Handler, method, path, bearer, body string, want int, out any) {
	b.Helper()
	r := httptest.NewRequest(method, path, bytes.NewBufferString(body))
	r.Header.Set("Content-Type", "application/json")
	if bearer != "" {
		r.Header.Set("Authorization", "Bearer "+bearer)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != want {
		b.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
	}
	if out != nil {
		if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWalletCheck is GET /api/v1/bot/wallet/check through the full
// handler chain (request id, access log, API-key lookup, wallet and
// guardrail reads, JSON encoding), without any network.
func BenchmarkWalletCheck(b *testing.B) {
	for _, d := range storetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			s := newService(b, d)
			for _, logTo := range []string{"file", "discard"} {
				h := s.handler(b, logTo)
				b.Run("log="+logTo, func(b *testing.B) {
					benchHandler(b, h, "/api/v1/bot/wallet/check", s.apiKey)
				})
			}
		})
	}
}

func benchHandler(b *testing.B, h http.Handler, path, apiKey string) {
	b.SetParallelism(parallelism)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r := httptest.NewRequest(http.MethodGet, path, nil)
			r.Header.Set("Authorization", "Bearer "+apiKey)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				b.Errorf("GET %s: %d %s", path, w.Code, w.Body)
				return
			}
		}
	})
}

// The statements of wallet/check, as internal/store issues them (PostgreSQL
// placeholders; SQLite gets ?N as the store's rebind does).
const (
	botColumns = `id, name, owner_email, description, bot_type, owner_id, claimed_at, callback_url,
	webhook_status, webhook_fail_count, local_port, webhook_path, frozen, created_at`
	qBot    = `SELECT ` + botColumns + ` FROM bots WHERE api_key_hash = $1`
	qWallet = `SELECT w.id, w.balance_cents, w.held_cents,
			(SELECT COUNT(*) FROM topup_requests t WHERE t.bot_id = w.bot_id AND t.status = 'sent'),
			(SELECT COALESCE(SUM(-l.amount_cents), 0) FROM ledger l WHERE l.bot_id = w.bot_id AND l.type = 'spend' AND l.created_at >= $2)
		FROM wallets w WHERE w.bot_id = $1`
	qGuardrails = `SELECT approval_mode, per_transaction_cents, daily_cents, monthly_cents, ask_approval_above_cents,
			recurring_allowed, notes, approved_categories, blocked_categories, updated_at
		FROM guardrails WHERE bot_id = $1`
	// qProcessor is read by wallets.Service.Overview for every wallet/check although the
	// wallet/check answer does not show it (it has no row for this bot).
	qProcessor = `SELECT w.bot_id, w.address, w.sealed_key, w.balance_micro,
	(SELECT COALESCE(SUM(r.amount_micro), 0) FROM signing_requests r
		WHERE r.bot_id = w.bot_id AND r.status IN ('signed', 'pending') AND r.reserved_until > $2) FROM processor_wallets w WHERE w.bot_id = $1`
	// qOverview is the recommended single statement: the bot by key digest
	// with its wallet and guardrails (NULLs before the claim).
	qOverview = `SELECT b.id, b.name, b.owner_email, b.description, b.bot_type, b.owner_id, b.claimed_at, b.callback_url,
			b.webhook_status, b.webhook_fail_count, b.local_port, b.webhook_path, b.frozen, b.created_at,
			w.id, w.balance_cents, w.held_cents,
			(SELECT COUNT(*) FROM topup_requests t WHERE t.bot_id = b.id AND t.status = 'sent'),
			(SELECT COALESCE(SUM(-l.amount_cents), 0) FROM ledger l WHERE l.bot_id = b.id AND l.type = 'spend' AND l.created_at >= $2),
			g.approval_mode, g.per_transaction_cents, g.daily_cents, g.monthly_cents, g.ask_approval_above_cents,
			g.recurring_allowed, g.notes, g.approved_categories, g.blocked_categories, g.updated_at
		FROM bots b LEFT JOIN wallets w ON w.bot_id = b.id LEFT JOIN guardrails g ON g.bot_id = b.id
		WHERE b.api_key_hash = $1`
)

var placeholder = regexp.MustCompile(`\$(\d+)`)

// BenchmarkQueries compares the database work of one wallet/check done
// three ways on the same database: "as-is" (four unprepared statements,
// what the store does today), "prepared" (the same four statements
// prepared once) and "one-statement" (qOverview, prepared once; it leaves
// out the processor wallet, which wallet/check does not show).
func BenchmarkQueries(b *testing.B) {
	for _, d := range storetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			s := newService(b, d)
			db := openLikeStore(b, d, s.db.Options)
			text := func(q string) string {
				if d == store.SQLite {
					return placeholder.ReplaceAllString(q, "?$1")
				}
				return q
			}
			hash := botpay.Digest(s.apiKey)
			month := botpay.MonthStart(time.Now()).UnixMilli()
			now := time.Now().UnixMilli()
			four := []query{{text(qBot), 14, []any{hash}}, {text(qWallet), 5, []any{s.botID, month}},
				{text(qGuardrails), 10, []any{s.botID}}, {text(qProcessor), 5, []any{s.botID, now}}}
			one := []query{{text(qOverview), 29, []any{hash, month}}}
			b.Run("as-is", func(b *testing.B) { benchQueries(b, db, four, false) })
			b.Run("prepared", func(b *testing.B) { benchQueries(b, db, four, true) })
			b.Run("one-statement", func(b *testing.B) { benchQueries(b, db, one, true) })
		})
	}
}

type query struct {
	sql  string
	cols int
	args []any
}

// openLikeStore opens a read pool configured as internal/store's.
func openLikeStore(b *testing.B, d store.Dialect, opts store.Options) *sql.DB {
	b.Helper()
	var db *sql.DB
	var err error
	if d == store.SQLite {
		dsn := "file:" + filepath.Join(opts.DataDir, "botpay.db") +
			"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=query_only(1)"
		db, err = sql.Open("sqlite", dsn)
		if err == nil {
			db.SetMaxOpenConns(8)
			db.SetMaxIdleConns(8)
		}
	} else {
		db, err = sql.Open("pgx", opts.DatabaseURL)
		if err == nil {
			db.SetMaxOpenConns(32)
			db.SetMaxIdleConns(32)
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func benchQueries(b *testing.B, db *sql.DB, qs []query, prepare bool) {
	ctx := context.Background()
	stmts := make([]*sql.Stmt, len(qs))
	if prepare {
		for i, q := range qs {
			st, err := db.PrepareContext(ctx, q.sql)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			stmts[i] = st
		}
	}
	b.SetParallelism(parallelism)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		dest := make([]any, 32)
		ptrs := make([]any, len(dest))
		for i := range dest {
			ptrs[i] = &dest[i]
		}
		for pb.Next() {
			for i, q := range qs {
				var row *sql.Row
				if prepare {
					row = stmts[i].QueryRowContext(ctx, q.args...)
				} else {
					row = db.QueryRowContext(ctx, q.sql, q.args...)
				}
				if err := row.Scan(ptrs[:q.cols]...); err != nil && !errors.Is(err, sql.ErrNoRows) {
					b.Error(err)
					return
				}
			}
		}
	})
}
