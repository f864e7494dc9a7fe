package kernel_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/store/storetest"
)

// The driver conformance suite: what every engine's driver must do the
// same, run on each. A capability's SQL may rely on exactly this.

// scratch opens an isolated, migrated database and gives it a table of
// counters for the suite to write.
func scratch(t *testing.T, db *storetest.DB) *kernel.DB {
	t.Helper()
	k := db.Store.Kernel()
	err := k.InTx(context.Background(), func(tx *kernel.Tx) error {
		_, err := tx.Exec(context.Background(), `CREATE TABLE conformance (
			id BIGINT PRIMARY KEY, n BIGINT NOT NULL, parent BIGINT REFERENCES conformance (id))`)
		return err
	})
	if err != nil {
		t.Fatalf("create scratch table: %v", err)
	}
	t.Cleanup(func() { // before the schema goes back to the pool
		k.InTx(context.Background(), func(tx *kernel.Tx) error {
			_, err := tx.Exec(context.Background(), `DROP TABLE conformance`)
			return err
		})
	})
	return k
}

func counter(t *testing.T, k *kernel.DB, id int64) (n int64, found bool) {
	t.Helper()
	err := k.QueryRow(context.Background(), `SELECT n FROM conformance WHERE id = $1`, id).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false
	}
	if err != nil {
		t.Fatalf("read counter %d: %v", id, err)
	}
	return n, true
}

func TestDriverCommitsOrRollsBackTheWholeTransaction(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		k, ctx := scratch(t, db), context.Background()
		var afterCommit []string
		boom := errors.New("boom")
		err := k.InTx(ctx, func(tx *kernel.Tx) error {
			tx.AfterCommit(func() { afterCommit = append(afterCommit, "rolled back") })
			if _, err := tx.Exec(ctx, `INSERT INTO conformance (id, n) VALUES (1, 1)`); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("InTx = %v, want the function's error", err)
		}
		if _, found := counter(t, k, 1); found {
			t.Fatal("a rolled-back insert is visible")
		}
		err = k.InTx(ctx, func(tx *kernel.Tx) error {
			tx.AfterCommit(func() { afterCommit = append(afterCommit, "committed") })
			_, err := tx.Exec(ctx, `INSERT INTO conformance (id, n) VALUES (1, 1)`)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n, found := counter(t, k, 1); !found || n != 1 {
			t.Fatalf("committed counter = %d (found %v), want 1", n, found)
		}
		if len(afterCommit) != 1 || afterCommit[0] != "committed" {
			t.Fatalf("after-commit functions ran for %v, want only the committed transaction", afterCommit)
		}
	})
}

// ReadRow reads as QueryRow does, nullable columns and no row included,
// whichever way the driver reads it.
func TestDriverReadRowReadsAsQueryRowDoes(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		k, ctx := scratch(t, db), context.Background()
		if err := k.InTx(ctx, func(tx *kernel.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO conformance (id, n) VALUES (1, 7), (2, 8)`)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var n, sum int64
		var parent sql.NullInt64
		err := k.ReadRow(ctx, `SELECT n, parent, (SELECT CAST(SUM(n) AS BIGINT) FROM conformance) FROM conformance WHERE id = $1`,
			[]any{int64(2)}, &n, &parent, &sum)
		if err != nil || n != 8 || parent.Valid || sum != 15 {
			t.Fatalf("ReadRow = %d, %+v, %d, %v; want 8, NULL, 15", n, parent, sum, err)
		}
		err = k.ReadRow(ctx, `SELECT n FROM conformance WHERE id = $1`, []any{int64(3)}, &n)
		if !errors.Is(err, sql.ErrNoRows) {
			t.Fatalf("ReadRow of no row = %v; want sql.ErrNoRows", err)
		}
	})
}

func TestDriverClassifiesConstraintViolations(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		k, ctx := scratch(t, db), context.Background()
		insert := func(query string) error {
			return k.InTx(ctx, func(tx *kernel.Tx) error {
				_, err := tx.Exec(ctx, query)
				return err
			})
		}
		if err := insert(`INSERT INTO conformance (id, n) VALUES (1, 0)`); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name, query string
			want        error
		}{
			{"a duplicate key is ErrUnique", `INSERT INTO conformance (id, n) VALUES (1, 0)`, kernel.ErrUnique},
			{"a missing parent is ErrForeignKey", `INSERT INTO conformance (id, n, parent) VALUES (2, 0, 99)`, kernel.ErrForeignKey},
		}
		for _, c := range cases {
			if err := insert(c.query); !errors.Is(err, c.want) {
				t.Errorf("%s: got %v", c.name, err)
			}
		}
		if err := insert(`INSERT INTO conformance (id, n) VALUES ('x', 0, 0)`); errors.Is(err, kernel.ErrUnique) || errors.Is(err, kernel.ErrForeignKey) || err == nil {
			t.Errorf("a malformed statement: got %v, want an unclassified error", err)
		}
	})
}

func TestDriverPipelineRunsStepsInOrder(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		k, ctx := scratch(t, db), context.Background()
		var n, missing int64
		var found, absent bool
		var rows []int64
		err := k.InTx(ctx, func(tx *kernel.Tx) error {
			return tx.Pipeline(ctx,
				kernel.Step{Query: `INSERT INTO conformance (id, n) VALUES ($1, $2)`, Args: []any{1, 10}},
				kernel.Step{Query: `UPDATE conformance SET n = n + $2 WHERE id = $1`, Args: []any{1, 5}},
				kernel.Step{Query: `INSERT INTO conformance (id, n) VALUES ($1, $2)`, Args: []any{2, 20}},
				kernel.Step{Query: `SELECT n FROM conformance WHERE id = $1`, Args: []any{1}, Dest: []any{&n}, Found: &found},
				kernel.Step{Query: `SELECT n FROM conformance WHERE id = $1`, Args: []any{9}, Dest: []any{&missing}, Found: &absent},
				kernel.Step{Query: `SELECT n FROM conformance ORDER BY id`, Each: func(r kernel.Scanner) error {
					var v int64
					err := r.Scan(&v)
					rows = append(rows, v)
					return err
				}})
		})
		if err != nil {
			t.Fatal(err)
		}
		if n != 15 || !found || absent || len(rows) != 2 || rows[0] != 15 || rows[1] != 20 {
			t.Fatalf("pipeline read n=%d found=%v absent-found=%v rows=%v; want 15 true false [15 20]", n, found, absent, rows)
		}
		err = k.InTx(ctx, func(tx *kernel.Tx) error {
			return tx.Pipeline(ctx, kernel.Step{Query: `SELECT n FROM conformance WHERE id = 9`, Dest: []any{&missing}})
		})
		if !errors.Is(err, sql.ErrNoRows) {
			t.Fatalf("a missing row without Found: got %v, want sql.ErrNoRows", err)
		}
	})
}

func TestDriverRunsAtCommitStatementsLastInOrder(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		k, ctx := scratch(t, db), context.Background()
		var seen int64
		err := k.InTx(ctx, func(tx *kernel.Tx) error {
			tx.AtCommit(kernel.Step{Query: `UPDATE conformance SET n = n * 10 WHERE id = 1`})
			tx.AtCommit(kernel.Step{Query: `SELECT n FROM conformance WHERE id = 1`, Dest: []any{&seen}})
			_, err := tx.Exec(ctx, `INSERT INTO conformance (id, n) VALUES (1, 3)`)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := counter(t, k, 1); n != 30 || seen != 30 {
			t.Fatalf("counter %d, read at commit %d; want 30 and 30 (statements at commit run after the body, in order)", n, seen)
		}
	})
}

// Concurrent read-then-write transactions under ForUpdate never lose an
// increment: the row lock (or SQLite's single writer) orders them.
func TestDriverForUpdateOrdersReadThenWrite(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		k, ctx := scratch(t, db), context.Background()
		if err := k.InTx(ctx, func(tx *kernel.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO conformance (id, n) VALUES (1, 0)`)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		const writers = 16
		var wg sync.WaitGroup
		for range writers {
			wg.Go(func() {
				err := k.InTx(ctx, func(tx *kernel.Tx) error {
					var n int64
					if err := tx.QueryRow(ctx, `SELECT n FROM conformance WHERE id = 1`+tx.ForUpdate()).Scan(&n); err != nil {
						return err
					}
					_, err := tx.Exec(ctx, `UPDATE conformance SET n = $1 WHERE id = 1`, n+1)
					return err
				})
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if n, _ := counter(t, k, 1); n != writers {
			t.Fatalf("counter = %d after %d locked increments", n, writers)
		}
	})
}

// Concurrent claimers under SkipLocked each take a row no other claimer
// holds: no row is claimed twice.
func TestDriverSkipLockedNeverClaimsARowTwice(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		k, ctx := scratch(t, db), context.Background()
		const rows = 12
		if err := k.InTx(ctx, func(tx *kernel.Tx) error {
			for i := range rows {
				if _, err := tx.Exec(ctx, `INSERT INTO conformance (id, n) VALUES ($1, 0)`, i+1); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range rows {
			wg.Go(func() {
				err := k.InTx(ctx, func(tx *kernel.Tx) error {
					var id int64
					q := `SELECT id FROM conformance WHERE n = 0 ORDER BY id LIMIT 1` + tx.Driver().SkipLocked()
					if err := tx.QueryRow(ctx, q).Scan(&id); err != nil {
						return err
					}
					_, err := tx.Exec(ctx, `UPDATE conformance SET n = n + 1 WHERE id = $1`, id)
					return err
				})
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		var claimedTwice, unclaimed int
		if err := k.QueryRow(ctx, `SELECT COUNT(CASE WHEN n > 1 THEN 1 END), COUNT(CASE WHEN n = 0 THEN 1 END) FROM conformance`).Scan(&claimedTwice, &unclaimed); err != nil {
			t.Fatal(err)
		}
		if claimedTwice != 0 || unclaimed != 0 {
			t.Fatalf("%d rows claimed twice, %d unclaimed; want every row claimed once", claimedTwice, unclaimed)
		}
	})
}

func TestDriverMigratesOnceAndBacksUpWhatItCan(t *testing.T) {
	t.Parallel()
	storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
		k, ctx := db.Store.Kernel(), context.Background()
		applied, err := k.Migrate(ctx)
		if err != nil || len(applied) != 0 {
			t.Fatalf("second migration applied %v (%v), want nothing", applied, err)
		}
		if got, want := countMigrations(t, k), kernel.MigrationCount(k.Engine()); got != want {
			t.Fatalf("schema_migrations holds %d rows, the engine has %d migrations", got, want)
		}
		err = k.Backup(ctx, filepath.Join(t.TempDir(), "copy.db"))
		switch k.Engine() {
		case kernel.SQLite:
			if err != nil {
				t.Fatalf("backup: %v", err)
			}
		default:
			if !errors.Is(err, kernel.ErrBackupPostgres) {
				t.Fatalf("backup of PostgreSQL: %v, want ErrBackupPostgres", err)
			}
		}
		if err := k.CheckIntegrity(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

func countMigrations(t *testing.T, k *kernel.DB) int {
	t.Helper()
	var n int
	if err := k.QueryRow(context.Background(), `SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
