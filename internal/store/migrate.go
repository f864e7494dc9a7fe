package store

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

func (s *Store) migrations() ([]migration, error) {
	dir := "migrations/" + string(s.dialect.name)
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

// pgMigrationLock is the PostgreSQL advisory lock replicas take around
// migrations. Advisory locks are per database, so the schema is the second
// key: deployments (and tests) in other schemas of one database migrate
// without waiting for each other.
const (
	pgMigrationLock   = `SELECT pg_advisory_lock(727274, hashtext(current_schema()))`
	pgMigrationUnlock = `SELECT pg_advisory_unlock(727274, hashtext(current_schema()))`
)

// Migrate applies every embedded migration not yet applied, each in its own
// transaction. On PostgreSQL an advisory lock lets several replicas start at
// once; SQLite's immediate transactions serialise them already.
func (s *Store) Migrate(ctx context.Context) (applied []string, err error) {
	all, err := s.migrations()
	if err != nil {
		return nil, wrapErr(err, "migrate")
	}
	if s.dialect.migrationLock {
		conn, err := s.write.Conn(ctx)
		if err != nil {
			return nil, wrapErr(err, "migrate")
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, pgMigrationLock); err != nil {
			return nil, fmt.Errorf("migration lock: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), pgMigrationUnlock)
	}
	err = s.inTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("create schema_migrations: %w", err)
	}
	for _, m := range all {
		err := s.inTx(ctx, func(tx *Tx) error {
			var n int
			if err := tx.queryRow(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`, m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if err := tx.execScript(ctx, m.sql); err != nil {
				return fmt.Errorf("apply %s: %w", m.name, err)
			}
			_, err := tx.exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
				m.version, m.name, ms(s.clock.Now()))
			if err == nil {
				applied = append(applied, m.name)
			}
			return err
		})
		if err != nil {
			return applied, wrapErr(err, "migrate")
		}
	}
	return applied, nil
}
