package kernel

import (
	"context"
	"fmt"
)

// RecordSecretKeyCheck records digest as the database's secret-key check
// unless one is recorded already, and answers the recorded one: the
// caller compares them to know whether its key is the one the database
// was first sealed with.
func (db *DB) RecordSecretKeyCheck(ctx context.Context, digest string) (recorded string, err error) {
	now := MS(db.clock.Now())
	err = db.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO secret_key_check (id, digest, created_at) VALUES (1, $1, $2)
			ON CONFLICT (id) DO NOTHING`, digest, now); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT digest FROM secret_key_check WHERE id = 1`).Scan(&recorded)
	})
	if err != nil {
		return "", fmt.Errorf("record secret key check: %w", err)
	}
	return recorded, nil
}
