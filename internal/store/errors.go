package store

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrUnique and ErrForeignKey are the typed forms of constraint violations on
// either engine, decided by the driver's error code, never by message text.
var (
	ErrUnique     = errors.New("unique constraint violated")
	ErrForeignKey = errors.New("foreign key constraint violated")
)

// classify wraps driver constraint errors so callers can errors.Is them.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505":
			return errors.Join(ErrUnique, err)
		case "23503":
			return errors.Join(ErrForeignKey, err)
		}
		return err
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		switch sqErr.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return errors.Join(ErrUnique, err)
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return errors.Join(ErrForeignKey, err)
		}
	}
	return err
}
