package store

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// ErrBackupPostgres says why botpay does not back PostgreSQL up itself.
var ErrBackupPostgres = errors.New("botpay backup copies the embedded SQLite database; " +
	"back PostgreSQL up with its own tools: pg_dump (logical) or pg_basebackup with WAL archiving (point in time)")

// Backup writes a consistent copy of the SQLite database to path while the
// service keeps running (VACUUM INTO reads one snapshot; writers are not
// blocked). path must not exist yet. The copy holds everything the
// database does, so it is readable by its owner only: the empty file is
// created 0600 first (VACUUM INTO writes into an empty file and keeps its
// mode, where it would create one with the umask's).
func (s *Store) Backup(ctx context.Context, path string) error {
	if !s.dialect.embeddedFile {
		return ErrBackupPostgres
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	f.Close()
	if _, err := s.write.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		os.Remove(path)
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return os.Chmod(path, 0o600)
}

// CheckIntegrity runs SQLite's integrity check over the whole database (a
// restored backup is checked before use).
func (s *Store) CheckIntegrity(ctx context.Context) error {
	if !s.dialect.embeddedFile {
		return nil
	}
	var result string
	if err := s.read.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&result); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if result != "ok" {
		return fmt.Errorf("integrity check: %s", result)
	}
	return nil
}
