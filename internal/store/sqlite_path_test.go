package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/botpay/botpay/internal/store"
)

// A data folder whose name holds what a file: URI reads as its query or
// fragment ("#", as Go names repeated subtests, "?", "%") keeps its
// database inside it, not in a file named by the part before.
func TestSQLiteDataFolderNamesAreNotReadAsURIParts(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"data#01", "data?x=1", "data%23"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name)
			st, err := store.Open(context.Background(), store.Options{DataDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if _, err := st.Kernel().Migrate(context.Background()); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, "botpay.db")); err != nil {
				t.Fatalf("the database is not in its folder: %v", err)
			}
			entries, _ := os.ReadDir(filepath.Dir(dir))
			if len(entries) != 1 {
				t.Fatalf("the parent folder holds %d entries, want the data folder alone", len(entries))
			}
		})
	}
}
