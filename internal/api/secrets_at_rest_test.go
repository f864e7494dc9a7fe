package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
	"github.com/botpay/botpay/internal/testserver"
)

// cell is one stored value of one column.
type cell struct {
	table, column string
	value         []byte
}

// dumpDatabase reads every column of every row of every table of the
// server's database straight from the engine.
func dumpDatabase(t *testing.T, srv *testserver.Server) (cells []cell, rowsPerTable map[string]int) {
	t.Helper()
	db := rawDB(t, srv)
	tables := storetest.TableNames(t, db, srv.Store.Dialect())
	rowsPerTable = map[string]int{}
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `"`)
		if err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("scan %s: %v", table, err)
			}
			rowsPerTable[table]++
			for i, v := range vals {
				var b []byte
				switch v := v.(type) {
				case nil:
					continue
				case []byte:
					b = v
				case string:
					b = []byte(v)
				default:
					b = fmt.Append(nil, v)
				}
				cells = append(cells, cell{table, cols[i], bytes.Clone(b)})
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return cells, rowsPerTable
}

var base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]{16,}={0,2}`)

// views is a stored value together with what its base64 runs decode to,
// two levels deep, so a secret inside base64 inside JSON (as an unsealed
// stored response would hold it) is found as well.
func views(b []byte, depth int) [][]byte {
	out := [][]byte{bytes.ToLower(b)}
	if depth == 0 {
		return out
	}
	for _, run := range base64Run.FindAll(b, -1) {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if dec, err := enc.DecodeString(string(run)); err == nil {
				out = append(out, views(dec, depth-1)...)
			}
		}
	}
	return out
}

// TestSecretsAreNotStoredInTheClear (docs/decisions.md): after
// registrations of every kind, signups, logins, and an idempotent
// registration and login (whose stored answers hold an API key and an owner
// token), no API key, claim token, owner token, password, webhook secret,
// tunnel token or hooks token is anywhere in the database, nor the random
// part of any of them, nor either in base64 or hex.
func TestSecretsAreNotStoredInTheClear(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, d store.Dialect) {
		srv := testserver.Start(t, d, lenient())
		secrets, known, pairingCode := drawEverySecret(t, srv)
		cells, rowsPerTable := dumpDatabase(t, srv)
		checkDumpSeesTheData(t, cells, rowsPerTable, known)
		for _, c := range cells {
			checkCellHoldsNoSecret(t, c, secrets)
			if string(c.value) == pairingCode {
				t.Errorf("the pairing code is stored in the clear in %s.%s", c.table, c.column)
			}
		}
		if d == store.SQLite {
			checkFilesHoldNoSecret(t, srv, secrets)
		}
	})
}

// drawEverySecret signs owners up and in (once idempotently), registers
// bots of every kind (one idempotently) and claims one. It returns every
// secret shown (value → what it is), values known to be stored, and the
// pairing code.
func drawEverySecret(t *testing.T, srv *testserver.Server) (secrets map[string]string, known []string, pairingCode string) {
	secrets = map[string]string{}
	keep := func(what string, r response, fields ...string) {
		t.Helper()
		for _, f := range fields {
			v := r.str(f)
			if v == "" {
				t.Fatalf("%s: no %s in %s", what, f, r)
			}
			secrets[v] = what + " " + f
		}
	}
	alice, bob := signup(t, srv), signup(t, srv)
	secrets[alice.token], secrets[bob.token] = "signup token", "signup token"
	secrets[testPassword] = "password"
	login := do(t, srv, http.MethodPost, "/api/v1/owner/login", map[string]any{"email": alice.email, "password": testPassword})
	wantStatus(t, login, http.StatusOK)
	keep("login", login, "token")
	// A login with an Idempotency-Key has its answer, token included, stored.
	login = do(t, srv, http.MethodPost, "/api/v1/owner/login", map[string]any{"email": bob.email, "password": testPassword},
		"Idempotency-Key", "login-secret-test")
	wantStatus(t, login, http.StatusOK)
	keep("idempotent login", login, "token")

	plain := register(t, srv, botBody(alice.email), "Idempotency-Key", "secret-test")
	keep("plain bot", plain, "api_key", "claim_token", "webhook_secret")
	tunnel := register(t, srv, map[string]any{"bot_name": unique("tunnel"), "owner_email": bob.email})
	keep("tunnel bot", tunnel, "api_key", "claim_token", "webhook_secret", "tunnel_token", "hooks_token")

	pc := do(t, srv, http.MethodPost, "/api/v1/owner/pairing-codes", nil, auth(bob.token)...)
	wantStatus(t, pc, http.StatusCreated)
	pairingCode = pc.str("pairing_code")
	paired := register(t, srv, map[string]any{"bot_name": unique("paired"), "owner_email": bob.email, "pairing_code": pairingCode})
	keep("paired bot", paired, "api_key", "webhook_secret", "tunnel_token", "hooks_token")

	// A claimed bot, so wallets, guardrails and events exist too.
	claimedKey, _ := claimedBot(t, srv, alice)
	secrets[claimedKey] = "claimed bot api_key"
	return secrets, []string{plain.str("bot_id"), alice.email}, pairingCode
}

// checkDumpSeesTheData is the positive control: the dump holds rows of
// every table written and the values known to be stored.
func checkDumpSeesTheData(t *testing.T, cells []cell, rowsPerTable map[string]int, known []string) {
	for table, min := range map[string]int{"bots": 4, "owners": 2, "owner_tokens": 4, "pairing_codes": 1,
		"idempotency_keys": 2, "wallets": 2, "outbox": 2} {
		if rowsPerTable[table] < min {
			t.Fatalf("table %s has %d rows, want at least %d: the dump is not seeing the data", table, rowsPerTable[table], min)
		}
	}
	for _, needle := range known {
		if !slices.ContainsFunc(cells, func(c cell) bool {
			return bytes.Contains(bytes.ToLower(c.value), bytes.ToLower([]byte(needle)))
		}) {
			t.Fatal("the dump does not contain known values; the scan is blind")
		}
	}
}

// checkCellHoldsNoSecret looks for each secret, its hex, and its random
// part in the cell and in its decodings.
func checkCellHoldsNoSecret(t *testing.T, c cell, secrets map[string]string) {
	vs := views(c.value, 2)
	for secret, what := range secrets {
		needles := []string{secret, hex.EncodeToString([]byte(secret))}
		if _, random, ok := strings.Cut(secret, "_live_"); ok {
			needles = append(needles, random)
		} else if i := strings.LastIndexByte(secret, '_'); i > 0 && len(secret)-i-1 == 48 {
			needles = append(needles, secret[i+1:]) // whsec_, bpt_
		}
		for _, n := range needles {
			for _, v := range vs {
				if bytes.Contains(v, bytes.ToLower([]byte(n))) {
					t.Errorf("%s (%q) is stored in the clear in %s.%s", what, n, c.table, c.column)
				}
			}
		}
	}
}

// checkFilesHoldNoSecret reads SQLite's files themselves (database, WAL),
// not only what SQL returns.
func checkFilesHoldNoSecret(t *testing.T, srv *testserver.Server, secrets map[string]string) {
	files, _ := filepath.Glob(filepath.Join(srv.DB.Options.DataDir, "botpay.db*"))
	if len(files) == 0 {
		t.Fatal("no database files found")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for secret, what := range secrets {
			if bytes.Contains(data, []byte(secret)) {
				t.Errorf("%s is in the clear in file %s", what, filepath.Base(f))
			}
		}
	}
}
