package kernel

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

func migrations(engine Engine) ([]migration, error) {
	dir := "migrations/" + string(engine)
	entries, err := fs.ReadDir(migrationFiles, dir)
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("migration %s: name must be NNNN_description.sql", e.Name())
		}
		body, err := fs.ReadFile(migrationFiles, dir+"/"+e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

// Migrate applies every embedded migration not yet applied, each in its own
// transaction. On PostgreSQL an advisory lock lets several replicas start at
// once; SQLite's immediate transactions serialise them already.
func (s *DB) Migrate(ctx context.Context) (applied []string, err error) {
	all, err := migrations(s.Engine())
	if err != nil {
		return nil, fmt.Errorf("store: migrate: %w", err)
	}
	unlock, err := s.driver.lockMigrations(ctx, s)
	if err != nil {
		return nil, err
	}
	defer unlock()
	err = s.InTx(ctx, func(tx *Tx) error {
		_, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("create schema_migrations: %w", err)
	}
	for _, m := range all {
		err := s.InTx(ctx, func(tx *Tx) error {
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`, m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if err := tx.execScript(ctx, m.sql); err != nil {
				return fmt.Errorf("apply %s: %w", m.name, err)
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
				m.version, m.name, MS(s.clock.Now()))
			if err == nil {
				applied = append(applied, m.name)
			}
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("store: migrate: %w", err)
		}
	}
	return applied, nil
}

// MigrationFile is the text of one of engine's embedded migrations, for
// tests that run a migration's backfill again over existing rows.
func MigrationFile(engine Engine, name string) ([]byte, error) {
	return migrationFiles.ReadFile("migrations/" + string(engine) + "/" + name)
}

// PGMigrationLock is the statement a replica runs to take the migration
// lock, so a test can hold it as a migrating replica would.
const PGMigrationLock = pgMigrationLock
