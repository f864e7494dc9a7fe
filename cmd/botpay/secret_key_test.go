package main

import (
	"io"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/store"
	"github.com/botpay/botpay/internal/store/storetest"
)

// Two replicas on one database must hold one secret key: the second with
// another key (a replica started without BOTPAY_SECRET_KEY generates its
// own) refuses to start and says why, while the same key starts again.
func TestAReplicaWithAnotherSecretKeyRefusesToStart(t *testing.T) {
	t.Parallel()
	const first = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	const other = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"
	storetest.EachEngine(t, func(t *testing.T, dialect store.Dialect) {
		db := storetest.Open(t, dialect, nil)
		args := func(key string) []string {
			a := []string{"--secret-key", key, "--data-dir", t.TempDir()}
			if dialect == store.Postgres {
				return append(a, "--database-url", db.Options.DatabaseURL)
			}
			return append(a[:3], db.Options.DataDir)
		}
		for _, c := range []struct {
			key     string
			refused bool
		}{{first, false}, {first, false}, {other, true}} {
			d, err := open(t.Context(), "serve", args(c.key), io.Discard, nil)
			if d != nil {
				d.store.Close()
			}
			if c.refused && (err == nil || !strings.Contains(err.Error(), "BOTPAY_SECRET_KEY")) {
				t.Errorf("key %s…: err = %v, want a refusal naming BOTPAY_SECRET_KEY", c.key[:4], err)
			}
			if !c.refused && err != nil {
				t.Errorf("key %s…: %v", c.key[:4], err)
			}
		}
	})
}
