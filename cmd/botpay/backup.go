package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/botpay/botpay/internal/config"
	"github.com/botpay/botpay/internal/store"
)

// backup writes a consistent copy of the embedded SQLite database while
// the service runs; on PostgreSQL it says to use pg_dump.
func backup(ctx context.Context, args []string, stdout io.Writer) error {
	var out string
	cfg, err := config.Load("botpay backup", args, config.Env, func(fs *flag.FlagSet) {
		fs.StringVar(&out, "out", "", "file to write the backup to (must not exist)")
	})
	if err != nil {
		return err
	}
	if out == "" {
		return errors.New("usage: botpay backup --out FILE [--data-dir DIR]")
	}
	st, err := store.Open(ctx, store.Options{DatabaseURL: cfg.DatabaseURL, DataDir: cfg.DataDir})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Kernel().Backup(ctx, out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup written to %s\n", out)
	return nil
}

// restore puts a backup in place as the data folder's database after
// checking it; it refuses to overwrite a database that exists.
func restore(ctx context.Context, args []string, stdout io.Writer) error {
	var from string
	cfg, err := config.Load("botpay restore", args, config.Env, func(fs *flag.FlagSet) {
		fs.StringVar(&from, "from", "", "backup file written by botpay backup")
	})
	if err != nil {
		return err
	}
	if from == "" || cfg.DatabaseURL != "" {
		return errors.New("usage: botpay restore --from FILE [--data-dir DIR] (SQLite only; restore PostgreSQL with pg_restore)")
	}
	target := filepath.Join(cfg.DataDir, "botpay.db")
	if _, err := os.Stat(target); err == nil {
		return fmt.Errorf("restore: %s exists; move it away first (stop the service before restoring)", target)
	}
	if err := checkBackup(ctx, from); err != nil {
		return err
	}
	if err := copyFile(from, target); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	fmt.Fprintf(stdout, "restored %s to %s\n", from, target)
	return nil
}

// checkBackup opens a copy of the backup and runs the integrity check.
func checkBackup(ctx context.Context, from string) error {
	dir, err := os.MkdirTemp("", "botpay-restore-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := copyFile(from, filepath.Join(dir, "botpay.db")); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	st, err := store.Open(ctx, store.Options{DataDir: dir})
	if err != nil {
		return fmt.Errorf("restore: %s is not a botpay database: %w", from, err)
	}
	defer st.Close()
	return st.Kernel().CheckIntegrity(ctx)
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return err
	}
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
