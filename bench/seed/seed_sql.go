package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/kernel"
)

// seedTables are the statements that fill each table, written once for
// both engines with macros: {series N} is a FROM clause of rows i = 1..N,
// {hex X} the 16-digit hex of X (record ids), {false} and {true} the
// engine's booleans. $now is the seeding time in Unix milliseconds, and
// $spentMonth the UTC month start of the ledger rows, a day earlier. Bot i
// belongs to owner (i-1)/10+1; ledger row j belongs to bot (j-1)/10+1.
// Each bot's ten ledger rows are a funding, a sale and eight spends, so
// its wallet (9,700 cents, 800 spent in the month) equals its ledger and
// balance_after chain.
var seedTables = []struct{ table, sql string }{
	{"owners", `INSERT INTO owners (id, email, password_hash, created_at)
		SELECT 'own_' || {hex i}, 'seed' || i || '@seed.example', 'seeded: no password', $now {series owners}`},
	{"bots", `INSERT INTO bots (id, name, owner_email, bot_type, api_key_hash, owner_id, claimed_at, callback_url,
		webhook_secret_sealed, webhook_status, created_at, updated_at)
		SELECT 'bot_' || {hex i}, 'seed-' || i, 'seed' || ((i - 1) / 10 + 1) || '@seed.example', 'custom',
			'seeded-key-' || i, 'own_' || {hex (i - 1) / 10 + 1}, $now, 'https://seed.example/hook', {bytes},
			CASE WHEN i % 10 = 0 THEN 'none' ELSE 'active' END, $now - i, $now {series bots}`},
	{"wallets", `INSERT INTO wallets (bot_id, id, balance_cents, held_cents, month_spent_cents, spent_month, created_at, updated_at)
		SELECT 'bot_' || {hex i}, 'wal_' || {hex i}, 9700, 0, 800, $spentMonth, $now, $now {series bots}`},
	{"guardrails", `INSERT INTO guardrails (bot_id, approval_mode, per_transaction_cents, daily_cents, monthly_cents,
		ask_approval_above_cents, updated_at)
		SELECT 'bot_' || {hex i}, 'auto_approve_under_threshold', 10000, 25000, 100000, 2500, $now {series bots}`},
	{"cards", `INSERT INTO cards (id, bot_id, name, status, real_profile_index, created_at, updated_at)
		SELECT 'card_' || {hex i}, 'bot_' || {hex i}, 'Seed card', 'active', 1, $now, $now {series bots}`},
	{"ledger", `INSERT INTO ledger (bot_id, type, amount_cents, balance_after_cents, description, created_at)
		SELECT 'bot_' || {hex (i - 1) / 10 + 1},
			CASE (i - 1) % 10 WHEN 0 THEN 'fund' WHEN 1 THEN 'sale' ELSE 'spend' END,
			CASE (i - 1) % 10 WHEN 0 THEN 10000 WHEN 1 THEN 500 ELSE -100 END,
			CASE (i - 1) % 10 WHEN 0 THEN 10000 ELSE 10600 - 100 * ((i - 1) % 10) END,
			CASE (i - 1) % 10 WHEN 1 THEN 'Sale: Seed product' ELSE 'seeded' END, $now - 86400000 + i {series ledger}`},
	{"purchases", `INSERT INTO purchases (id, bot_id, owner_id, card_id, profile_index, decoy, amount_cents, merchant_name,
		merchant_url, item_name, category, status, created_at, decided_at, bot_seq)
		SELECT 'chk_' || {hex i}, 'bot_' || {hex (i - 1) / 2 + 1}, 'own_' || {hex (i - 1) / 20 + 1}, 'card_' || {hex (i - 1) / 2 + 1},
			1, {false}, 100, 'Seed Mart', 'https://mart.seed.example', 'seeded item', 'office', 'approved',
			$now - 86400000 + i, $now - 86400000 + i, (i - 1) % 2 + 1 {series purchases}`},
	{"outbox", `INSERT INTO outbox (event_id, bot_id, event_type, data, created_at, attempts, next_attempt_at, done_at, outcome)
		SELECT 'evt_' || {hex i}, 'bot_' || {hex i}, 'wallet.funded', '{}', $now - 86400000, 1, 0, $now - 86400000, 'delivered'
		{series bots}`},
	{"checkout_pages", `INSERT INTO checkout_pages (id, bot_id, title, description, amount_cents, amount_locked, allowed_methods,
		page_type, collect_buyer_name, payment_count, total_received_cents, created_at)
		SELECT 'cp_' || {hex i}, 'bot_' || {hex i}, 'Seed product', 'seeded', 500, {true}, '["usdc_direct"]', 'product',
			{false}, 1, 500, $now - 86400000 {series bots}`},
	{"sales", `INSERT INTO sales (id, bot_id, checkout_page_id, amount_cents, payment_method, status, buyer_type,
		buyer_identifier, buyer_email, checkout_title, confirmed_at, created_at)
		SELECT 'sale_' || {hex i}, 'bot_' || {hex i}, 'cp_' || {hex i}, 500, 'usdc_direct', 'confirmed', 'email',
			'buyer' || i || '@seed.example', 'buyer' || i || '@seed.example', 'Seed product',
			$now - 86400000 + 1, $now - 86400000 + 1 {series bots}`},
	{"topup_requests", `INSERT INTO topup_requests (bot_id, amount_cents, reason, status, owner_notified, created_at, fulfilled_at)
		SELECT 'bot_' || {hex i}, 10000, 'seeded', 'fulfilled', {true}, $now - 86400000, $now - 86400000 {series bots}`},
}

// seed fills an empty database with bots synthetic bots and their rows.
// It refuses a database that has bots already.
func seed(ctx context.Context, db *kernel.DB, bots int, progress func(table string, took time.Duration)) error {
	var existing int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM bots`).Scan(&existing); err != nil {
		return fmt.Errorf("seed: count bots: %w", err)
	}
	if existing > 0 {
		return errors.New("seed: the database has bots already; seed an empty one")
	}
	counts := map[string]int{"owners": max(1, bots/10), "bots": bots, "ledger": bots * 10, "purchases": bots * 2}
	now := db.Clock().Now().UnixMilli()
	write, _ := db.Pools()
	seeding := db.Driver().Seeding()
	for _, t := range seedTables {
		start := time.Now()
		q := seedSQL(seeding, t.sql, counts, now)
		if _, err := write.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("seed %s: %w", t.table, err)
		}
		progress(t.table, time.Since(start))
	}
	if seeding.AnalyzeAfterAll {
		if _, err := write.ExecContext(ctx, `ANALYZE`); err != nil {
			return fmt.Errorf("seed: analyze: %w", err)
		}
	}
	return nil
}

// seedSQL expands the macros of a seeding statement for this engine.
func seedSQL(seeding kernel.Seeding, q string, counts map[string]int, now int64) string {
	q = strings.ReplaceAll(q, "$now", strconv.FormatInt(now, 10))
	spentMonth := botpay.MonthStart(time.UnixMilli(now - 24*time.Hour.Milliseconds())).UnixMilli()
	q = strings.ReplaceAll(q, "$spentMonth", strconv.FormatInt(spentMonth, 10))
	for name, n := range counts {
		q = strings.ReplaceAll(q, "{series "+name+"}", seeding.Series(n))
	}
	q = strings.ReplaceAll(q, "{false}", seeding.False)
	q = strings.ReplaceAll(q, "{true}", seeding.True)
	q = strings.ReplaceAll(q, "{bytes}", seeding.Bytes)
	for strings.Contains(q, "{hex ") {
		start := strings.Index(q, "{hex ")
		end := start + strings.Index(q[start:], "}")
		expr := q[start+len("{hex ") : end]
		q = q[:start] + seeding.Hex16(expr) + q[end+1:]
	}
	return q
}
