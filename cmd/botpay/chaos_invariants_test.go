package main

import (
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/botpay/botpay/internal/store/storetest"
)

// checkChaosBooks reads the database directly, as an auditor would, and
// checks every invariant the service promises after the chaos run.
func checkChaosBooks(t *testing.T, db *storetest.DB, got *answered) {
	conn := openAudit(t, db)
	checks := []struct {
		name string
		run  func(*testing.T, *sql.DB, *answered)
	}{
		{"every wallet equals its ledger sum", walletsEqualLedgers},
		{"every balance_after follows from the row before", balanceAfterChains},
		{"every approved purchase has its ledger row and event", approvedPurchasesRecorded},
		{"no held amount leaks", holdsEqualPendingPurchases},
		{"day totals equal their purchases", dayTotalsEqualPurchases},
		{"nothing answered 2xx is lost", nothingAnsweredIsLost},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) { c.run(t, conn, got) })
	}
}

func openAudit(t *testing.T, db *storetest.DB) *sql.DB {
	driver, dsn := "pgx", db.Options.DatabaseURL
	if dsn == "" {
		driver, dsn = "sqlite", "file:"+filepath.Join(db.Options.DataDir, "botpay.db")+"?mode=ro"
	}
	conn, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// rows runs query and hands every row to scan.
func rows(t *testing.T, db *sql.DB, query string, scan func(*sql.Rows) error) {
	t.Helper()
	rs, err := db.Query(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rs.Close()
	for rs.Next() {
		if err := scan(rs); err != nil {
			t.Fatal(err)
		}
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
}

func walletsEqualLedgers(t *testing.T, db *sql.DB, _ *answered) {
	rows(t, db, `SELECT w.bot_id, w.balance_cents, COALESCE((SELECT SUM(l.amount_cents) FROM ledger l WHERE l.bot_id = w.bot_id), 0)
		FROM wallets w`, func(r *sql.Rows) error {
		var bot string
		var balance, sum int64
		if err := r.Scan(&bot, &balance, &sum); err != nil {
			return err
		}
		if balance != sum {
			t.Errorf("bot %s: balance %d, ledger sum %d", bot, balance, sum)
		}
		return nil
	})
}

func balanceAfterChains(t *testing.T, db *sql.DB, _ *answered) {
	running := map[string]int64{}
	rows(t, db, `SELECT bot_id, id, amount_cents, balance_after_cents FROM ledger ORDER BY bot_id, id`, func(r *sql.Rows) error {
		var bot string
		var id, amount int64
		var after sql.NullInt64
		if err := r.Scan(&bot, &id, &amount, &after); err != nil {
			return err
		}
		running[bot] += amount
		if after.Valid && after.Int64 != running[bot] {
			t.Errorf("bot %s ledger row %d: balance_after %d, but the rows before add up to %d", bot, id, after.Int64, running[bot])
		}
		return nil
	})
}

// approvedPurchasesRecorded: every approved purchase has its spend ledger
// row; each bot has exactly one wallet.spend.authorized per approved
// purchase (the event names no purchase id, so they are counted), and
// each owner approval has exactly one purchase.approved.
func approvedPurchasesRecorded(t *testing.T, db *sql.DB, _ *answered) {
	authorized, decided := map[string]int{}, map[string]int{}
	// An event staged at emit has its payload in its pending message only.
	rows(t, db, `SELECT o.bot_id, o.event_type, COALESCE(o.data, m.data) FROM outbox o
		LEFT JOIN pending_messages m ON o.data IS NULL AND m.bot_id = o.bot_id AND m.event_id = o.event_id
		WHERE o.event_type IN ('wallet.spend.authorized', 'purchase.approved')`,
		func(r *sql.Rows) error {
			var bot, typ, data string
			if err := r.Scan(&bot, &typ, &data); err != nil {
				return err
			}
			if typ == "wallet.spend.authorized" {
				authorized[bot]++
				return nil
			}
			var d struct {
				CheckoutID string `json:"checkout_id"`
			}
			err := json.Unmarshal([]byte(data), &d)
			decided[d.CheckoutID]++
			return err
		})
	approved := map[string]int{}
	rows(t, db, `SELECT p.id, p.bot_id, p.amount_cents, p.expires_at IS NOT NULL, l.amount_cents, l.type
		FROM purchases p LEFT JOIN ledger l ON l.id = p.ledger_id WHERE p.status = 'approved' AND NOT p.decoy`, func(r *sql.Rows) error {
		var id, bot string
		var amount int64
		var byOwner bool
		var debit sql.NullInt64
		var typ sql.NullString
		if err := r.Scan(&id, &bot, &amount, &byOwner, &debit, &typ); err != nil {
			return err
		}
		approved[bot]++
		if !debit.Valid || debit.Int64 != -amount || typ.String != "spend" {
			t.Errorf("approved purchase %s of %d has ledger row %v %v", id, amount, debit, typ)
		}
		if byOwner && decided[id] != 1 {
			t.Errorf("purchase %s approved by its owner has %d purchase.approved events, want 1", id, decided[id])
		}
		return nil
	})
	for bot, n := range approved {
		if authorized[bot] != n {
			t.Errorf("bot %s: %d approved purchases, %d wallet.spend.authorized events", bot, n, authorized[bot])
		}
	}
}

func holdsEqualPendingPurchases(t *testing.T, db *sql.DB, _ *answered) {
	rows(t, db, `SELECT w.bot_id, w.held_cents,
		COALESCE((SELECT SUM(p.amount_cents) FROM purchases p WHERE p.bot_id = w.bot_id AND p.status = 'pending'), 0)
		FROM wallets w`, func(r *sql.Rows) error {
		var bot string
		var held, pending int64
		if err := r.Scan(&bot, &held, &pending); err != nil {
			return err
		}
		if held != pending {
			t.Errorf("bot %s holds %d, its pending purchases add up to %d", bot, held, pending)
		}
		return nil
	})
}

func dayTotalsEqualPurchases(t *testing.T, db *sql.DB, _ *answered) {
	want := map[string]int64{}
	rows(t, db, `SELECT bot_id, created_at - created_at % 86400000, SUM(amount_cents) FROM purchases
		WHERE NOT decoy AND status IN ('approved', 'pending') GROUP BY bot_id, created_at - created_at % 86400000`, func(r *sql.Rows) error {
		var bot string
		var day, cents int64
		err := r.Scan(&bot, &day, &cents)
		want["bot:"+bot+"@"+itoa64(day)] = cents
		return err
	})
	rows(t, db, `SELECT scope, day, cents FROM spend_days WHERE scope LIKE 'bot:%'`, func(r *sql.Rows) error {
		var scope string
		var day, cents int64
		if err := r.Scan(&scope, &day, &cents); err != nil {
			return err
		}
		key := scope + "@" + itoa64(day)
		if want[key] != cents {
			t.Errorf("%s: running total %d, purchases add up to %d", key, cents, want[key])
		}
		delete(want, key)
		return nil
	})
	for key, cents := range want {
		t.Errorf("%s: purchases of %d have no running total", key, cents)
	}
}

func nothingAnsweredIsLost(t *testing.T, db *sql.DB, got *answered) {
	status := map[string]string{}
	rows(t, db, `SELECT id, status FROM purchases`, func(r *sql.Rows) error {
		var id, s string
		err := r.Scan(&id, &s)
		status[id] = s
		return err
	})
	for id, answeredStatus := range got.purchases {
		stored, ok := status[id]
		switch {
		case !ok:
			t.Errorf("purchase %s was answered %s but is not stored", id, answeredStatus)
		case (answeredStatus == "approved" || answeredStatus == "denied") && stored != answeredStatus:
			t.Errorf("purchase %s was answered %s but is stored %s", id, answeredStatus, stored)
		}
	}
	funded := map[int64]bool{}
	rows(t, db, `SELECT id FROM ledger WHERE type = 'fund'`, func(r *sql.Rows) error {
		var id int64
		err := r.Scan(&id)
		funded[id] = true
		return err
	})
	for id := range got.fundings {
		if !funded[id] {
			t.Errorf("funding %d was answered 200 but its ledger row is missing", id)
		}
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
