package kernel

import (
	"errors"
	"fmt"

	"github.com/botpay/botpay/internal/botpay"
)

// ErrUnique and ErrForeignKey are the typed forms of constraint violations on
// either engine, decided by the driver's error code (Driver.Classify).
var (
	ErrUnique     = errors.New("unique constraint violated")
	ErrForeignKey = errors.New("foreign key constraint violated")
)

// ErrBackupPostgres says why botpay does not back PostgreSQL up itself.
var ErrBackupPostgres = errors.New("botpay backup copies the embedded SQLite database; " +
	"back PostgreSQL up with its own tools: pg_dump (logical) or pg_basebackup with WAL archiving (point in time)")

// classify is the driver's classification of err (nil stays nil).
func (db *DB) classify(err error) error {
	if err == nil {
		return nil
	}
	return db.driver.Classify(err)
}

// ErrorWrapper is the error wrapper of a package's boundary: it adds the
// package's name and the context format describes to a database error,
// and leaves nil and domain errors (*botpay.Error, whose message is the
// answer) as they are.
func ErrorWrapper(pkg string) func(err error, format string, args ...any) error {
	return func(err error, format string, args ...any) error {
		if _, domain := err.(*botpay.Error); err == nil || domain {
			return err
		}
		return fmt.Errorf(pkg+": "+format+": %w", append(args, err)...)
	}
}
