package kernel

import "errors"

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
