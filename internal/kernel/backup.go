package kernel

import "context"

// Backup writes a consistent copy of the embedded database to path while
// the service keeps running; on PostgreSQL it is ErrBackupPostgres.
func (db *DB) Backup(ctx context.Context, path string) error {
	return db.driver.backup(ctx, db, path)
}

// CheckIntegrity runs the embedded engine's integrity check over the whole
// database (a restored backup is checked before use).
func (db *DB) CheckIntegrity(ctx context.Context) error {
	return db.driver.checkIntegrity(ctx, db)
}
