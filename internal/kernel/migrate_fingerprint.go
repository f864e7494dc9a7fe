package kernel

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// MigrationFingerprint names the schema that engine's embedded migrations
// build: a hash of every migration's name and text. Two binaries with the
// same fingerprint make the same schema, so a schema migrated by one can
// stand in for a fresh one of the other; tests key their reusable migrated
// schemas and template files on it.
func MigrationFingerprint(engine Engine) (string, error) {
	all, err := migrations(engine)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, m := range all {
		fmt.Fprintf(h, "%d\x00%s\x00%d\x00%s\x00", m.version, m.name, len(m.sql), m.sql)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// MigrationCount is how many migrations engine's schema is built from: a
// schema whose schema_migrations holds fewer was left half-built.
func MigrationCount(engine Engine) int {
	all, _ := migrations(engine)
	return len(all)
}
