package kernel_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/kernel"
	"github.com/botpay/botpay/internal/store/storetest"
)

// schemaShape is what the parity test compares of a migrated schema, each
// fact a sentence keyed by the object it describes, so that two engines'
// shapes are compared as maps.
type schemaShape map[string]string

// The queries that read a shape. Both engines answer one row per fact:
// its key and its description.
const (
	sqliteColumns = `SELECT 'column ' || m.name || '.' || c.name,
			CASE WHEN c."notnull" = 1 OR c.pk > 0 THEN 'NOT NULL' ELSE 'nullable' END
		FROM sqlite_master m, pragma_table_info(m.name) c
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`
	postgresColumns = `SELECT 'column ' || table_name || '.' || column_name,
			CASE WHEN is_nullable = 'NO' THEN 'NOT NULL' ELSE 'nullable' END
		FROM information_schema.columns WHERE table_schema = current_schema()`
	// sqliteIndexes covers CREATE INDEX and the indexes behind UNIQUE and
	// PRIMARY KEY constraints, under one naming: a constraint's index is
	// keyed by its table and columns, as PostgreSQL names them differently.
	sqliteIndexes = `SELECT CASE WHEN l.origin = 'c' THEN 'index ' || l.name
				ELSE 'constraint ' || m.name || '(' || (SELECT group_concat(name, ',') FROM
					(SELECT name FROM pragma_index_info(l.name) ORDER BY seqno)) || ')' END,
			m.name || CASE WHEN l."unique" = 1 THEN ' unique' ELSE '' END ||
				CASE WHEN l.partial = 1 THEN ' partial' ELSE '' END || ' (' ||
				(SELECT group_concat(COALESCE(name, 'expression'), ',') FROM
					(SELECT name FROM pragma_index_xinfo(l.name) WHERE key = 1 ORDER BY seqno)) || ')'
		FROM sqlite_master m, pragma_index_list(m.name) l
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`
	postgresIndexes = `SELECT CASE WHEN con.oid IS NULL THEN 'index ' || i.relname
				ELSE 'constraint ' || t.relname || '(' || cols.list || ')' END,
			t.relname || CASE WHEN ix.indisunique THEN ' unique' ELSE '' END ||
				CASE WHEN ix.indpred IS NOT NULL THEN ' partial' ELSE '' END || ' (' || cols.list || ')'
		FROM pg_index ix
		JOIN pg_class i ON i.oid = ix.indexrelid
		JOIN pg_class t ON t.oid = ix.indrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
		LEFT JOIN pg_constraint con ON con.conindid = ix.indexrelid AND con.contype IN ('p', 'u')
		CROSS JOIN LATERAL (SELECT string_agg(CASE WHEN ix.indkey[k - 1] = 0 THEN 'expression'
				ELSE pg_get_indexdef(ix.indexrelid, k, true) END, ',' ORDER BY k) AS list
			FROM generate_series(1, ix.indnkeyatts) k) cols`
	// sqliteRowidKeys are the INTEGER PRIMARY KEYs: SQLite makes them the
	// rowid, which needs no index, where PostgreSQL indexes the key. Both
	// are the same uniqueness, so they read as the same fact.
	sqliteRowidKeys = `SELECT 'constraint ' || m.name || '(' || c.name || ')', m.name || ' unique (' || c.name || ')'
		FROM sqlite_master m, pragma_table_info(m.name) c
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND c.pk = 1 AND upper(c.type) = 'INTEGER'
			AND (SELECT count(*) FROM pragma_table_info(m.name) WHERE pk > 0) = 1`
	sqliteForeignKeys = `SELECT 'foreign key ' || m.name || '.' || f."from", f."table" || '.' || COALESCE(f."to", 'id')
		FROM sqlite_master m, pragma_foreign_key_list(m.name) f
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'`
	postgresForeignKeys = `SELECT 'foreign key ' || t.relname || '.' || a.attname, r.relname || '.' || ra.attname
		FROM pg_constraint c
		JOIN pg_class t ON t.oid = c.conrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
		JOIN pg_class r ON r.oid = c.confrelid
		JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
		JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]
		WHERE c.contype = 'f'`
	sqliteTriggers  = `SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'`
	postgresTrigger = `SELECT tg.tgname, t.relname, tg.tgtype,
			COALESCE((SELECT string_agg(a.attname, ',') FROM pg_attribute a
				WHERE a.attrelid = tg.tgrelid AND a.attnum = ANY (tg.tgattr)), '')
		FROM pg_trigger tg
		JOIN pg_class t ON t.oid = tg.tgrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = current_schema()
		WHERE NOT tg.tgisinternal`
)

func readFacts(t *testing.T, db *sql.DB, shape schemaShape, query string) {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatalf("read the schema: %v\n%s", err, query)
	}
	defer rows.Close()
	for rows.Next() {
		var key, fact string
		if err := rows.Scan(&key, &fact); err != nil {
			t.Fatal(err)
		}
		if key == "column schema_migrations.version" || strings.HasPrefix(key, "constraint schema_migrations") {
			continue // made by Migrate itself, the same on both engines
		}
		shape[key] = fact
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// triggerEvent reads the event of a SQLite trigger from its text.
var triggerEvent = regexp.MustCompile(`(?is)\b(?:AFTER|BEFORE|INSTEAD OF)\s+(INSERT|DELETE|UPDATE)(?:\s+OF\s+(\w+(?:\s*,\s*\w+)*))?\s+ON\b`)

// A trigger is keyed by its purpose, its table and one event: SQLite has
// no trigger functions, so it writes one trigger per event
// (guardrails_config_insert) where PostgreSQL writes one for all three
// (guardrails_config); both are "trigger guardrails_config on guardrails
// INSERT" here.
func sqliteTriggerFacts(t *testing.T, db *sql.DB, shape schemaShape) {
	t.Helper()
	rows, err := db.Query(sqliteTriggers)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, table, text string
		if err := rows.Scan(&name, &table, &text); err != nil {
			t.Fatal(err)
		}
		m := triggerEvent.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("trigger %s: no event in %q", name, text)
		}
		event := strings.ToUpper(m[1])
		purpose := strings.TrimSuffix(name, "_"+strings.ToLower(event))
		shape[fmt.Sprintf("trigger %s on %s %s", purpose, table, event)] = updateOf(m[2])
	}
}

func postgresTriggerFacts(t *testing.T, db *sql.DB, shape schemaShape) {
	t.Helper()
	rows, err := db.Query(postgresTrigger)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, table, columns string
		var kind int
		if err := rows.Scan(&name, &table, &kind, &columns); err != nil {
			t.Fatal(err)
		}
		for bit, event := range map[int]string{1 << 2: "INSERT", 1 << 3: "DELETE", 1 << 4: "UPDATE"} {
			if kind&bit != 0 {
				shape[fmt.Sprintf("trigger %s on %s %s", name, table, event)] = updateOf(columns)
			}
		}
	}
}

// updateOf describes the columns an UPDATE trigger is limited to.
func updateOf(columns string) string {
	if columns == "" {
		return "any column"
	}
	parts := strings.Split(strings.ReplaceAll(columns, " ", ""), ",")
	slices.Sort(parts)
	return "of " + strings.Join(parts, ",")
}

func migratedShape(t *testing.T, d kernel.Engine) schemaShape {
	t.Helper()
	db := storetest.Open(t, d, nil)
	driver, dsn := "pgx", db.Options.DatabaseURL
	if d == kernel.SQLite {
		driver, dsn = "sqlite", "file:"+filepath.Join(db.Options.DataDir, "botpay.db")
	}
	raw, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	shape := schemaShape{}
	if d == kernel.SQLite {
		for _, q := range []string{sqliteColumns, sqliteIndexes, sqliteRowidKeys, sqliteForeignKeys} {
			readFacts(t, raw, shape, q)
		}
		sqliteTriggerFacts(t, raw, shape)
	} else {
		for _, q := range []string{postgresColumns, postgresIndexes, postgresForeignKeys} {
			readFacts(t, raw, shape, q)
		}
		postgresTriggerFacts(t, raw, shape)
	}
	return shape
}

// differences lists, sorted, every fact the two shapes do not share.
func differences(sqlite, postgres schemaShape) []string {
	var out []string
	for k, v := range sqlite {
		switch pv, ok := postgres[k]; {
		case !ok:
			out = append(out, k+": sqlite only")
		case pv != v:
			out = append(out, fmt.Sprintf("%s: %s on sqlite, %s on postgres", k, v, pv))
		}
	}
	for k := range postgres {
		if _, ok := sqlite[k]; !ok {
			out = append(out, k+": postgres only")
		}
	}
	sort.Strings(out)
	return out
}

func TestBothEnginesMigrateToTheSameSchema(t *testing.T) {
	t.Parallel()
	got := differences(migratedShape(t, kernel.SQLite), migratedShape(t, kernel.Postgres))
	if len(got) < 10 {
		t.Fatalf("only %d differences: the shapes were not read", len(got))
	}
	for _, d := range got {
		if !deliberateDifference(d) {
			t.Errorf("the engines' schemas differ, and no deliberate difference explains it: %s", d)
		}
	}
	for _, d := range deliberateDifferences {
		if !slices.ContainsFunc(got, d.pattern.MatchString) {
			t.Errorf("deliberate difference %q no longer exists: remove it from the list", d.pattern)
		}
	}
}

func TestSchemaParityCatchesADivergence(t *testing.T) {
	t.Parallel()
	sqlite := schemaShape{"column bots.id": "NOT NULL", "column bots.name": "NOT NULL", "index bots_name": "bots (name)"}
	postgres := schemaShape{"column bots.id": "NOT NULL", "column bots.name": "nullable", "index bots_owner": "bots (owner_id)"}
	want := []string{
		"column bots.name: NOT NULL on sqlite, nullable on postgres",
		"index bots_name: sqlite only",
		"index bots_owner: postgres only",
	}
	got := differences(sqlite, postgres)
	if !slices.Equal(got, want) {
		t.Fatalf("differences = %q, want %q", got, want)
	}
	for _, d := range got {
		if deliberateDifference(d) {
			t.Errorf("%q passes as deliberate", d)
		}
	}
}
