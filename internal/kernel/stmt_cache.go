package kernel

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
)

// stmtCache holds statements prepared once per query text. On SQLite the
// driver compiles the SQL text on every call otherwise, which was a third of
// wallet/check's CPU and, on the single write connection, time every other
// writer waits for. PostgreSQL's driver caches statements itself.
type stmtCache struct {
	m sync.Map // query text → *sql.Stmt
	n atomic.Int64
}

// maxCachedStatements bounds a cache; the service's SQL is static text, so
// the bound only matters if a query is ever built dynamically.
const maxCachedStatements = 512

func (c *stmtCache) get(query string) *sql.Stmt {
	if v, ok := c.m.Load(query); ok {
		return v.(*sql.Stmt)
	}
	return nil
}

// prepare prepares query (already rebound as rebound) on db unless it is
// cached or the cache is full; a failure is left to the plain call, which
// reports it.
func (c *stmtCache) prepare(ctx context.Context, db *sql.DB, query, rebound string) *sql.Stmt {
	if st := c.get(query); st != nil {
		return st
	}
	if c.n.Load() >= maxCachedStatements {
		return nil
	}
	st, err := db.PrepareContext(context.WithoutCancel(ctx), rebound)
	if err != nil {
		return nil
	}
	if v, loaded := c.m.LoadOrStore(query, st); loaded {
		st.Close()
		return v.(*sql.Stmt)
	}
	c.n.Add(1)
	return st
}

func (c *stmtCache) close() {
	c.m.Range(func(_, v any) bool {
		v.(*sql.Stmt).Close()
		return true
	})
}

// readStmt returns the prepared statement of a read on SQLite, or nil (on
// PostgreSQL, or when preparing failed: the plain call reports the error).
func (s *DB) readStmt(ctx context.Context, query string) *sql.Stmt {
	if !s.driver.preparesStatements() {
		return nil
	}
	return s.readStmts.prepare(ctx, s.read, query, s.Rebind(query))
}

// writeStmt returns, on SQLite, query's statement prepared on the write
// connection and bound to the transaction, or nil. A statement is never
// prepared inside a transaction (the pool's only connection is the
// transaction's): a miss runs plainly and is prepared after the
// transaction ends (prepareMissed).
func (t *Tx) writeStmt(ctx context.Context, query string) *sql.Stmt {
	if t.sqlTx == nil {
		return nil
	}
	st := t.db.writeStmts.get(query)
	if st == nil {
		t.missed = append(t.missed, query)
		return nil
	}
	return t.sqlTx.StmtContext(ctx, st)
}

// prepareMissed prepares the statements a finished SQLite transaction ran
// unprepared.
func (s *DB) prepareMissed(ctx context.Context, t *Tx) {
	for _, q := range t.missed {
		s.writeStmts.prepare(ctx, s.write, q, s.Rebind(q))
	}
}
