package storetest

import (
	"bytes"
	"database/sql"
	"sync"
	"testing"

	"github.com/botpay/botpay/internal/store"
)

// TableNames lists the tables of db's schema (the test's own, on
// PostgreSQL), sorted by name.
func TableNames(t testing.TB, db *sql.DB, dialect store.Dialect) []string {
	t.Helper()
	list := `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`
	if dialect == store.Postgres {
		list = `SELECT table_name FROM information_schema.tables
			WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
	}
	rows, err := db.Query(list)
	if err != nil {
		t.Fatalf("list tables: %v", err)
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatalf("list tables: %v", err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("list tables: %v", err)
	}
	return tables
}

// LogBuffer collects log output written from several goroutines (a
// server's handlers, a dispatcher's workers) for a test to read.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
