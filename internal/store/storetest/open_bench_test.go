package storetest

import (
	"os"
	"testing"
)

// oneTest stands for one test inside a benchmark loop: its cleanups and
// temporary folders end with the iteration, as a test's end with the test.
type oneTest struct {
	testing.TB
	cleanups []func()
}

func (o *oneTest) Cleanup(f func()) { o.cleanups = append(o.cleanups, f) }

func (o *oneTest) TempDir() string {
	dir, err := os.MkdirTemp("", "storetest-bench-")
	if err != nil {
		o.Fatal(err)
	}
	o.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func (o *oneTest) end() {
	for i := len(o.cleanups) - 1; i >= 0; i-- {
		o.cleanups[i]()
	}
}

// BenchmarkOpen is the setup every store test pays: a migrated, empty,
// isolated database, made fresh (every migration) or reused (a template
// copy on SQLite, a reset pooled schema on PostgreSQL), and its teardown.
func BenchmarkOpen(b *testing.B) {
	for _, d := range Dialects {
		for _, mode := range []struct{ name, env string }{{"fresh", "1"}, {"reused", ""}} {
			b.Run(string(d)+"/"+mode.name, func(b *testing.B) {
				b.Setenv(FreshSchemasEnv, mode.env)
				for b.Loop() {
					one := &oneTest{TB: b}
					Open(one, d, nil)
					one.end()
				}
			})
		}
	}
}
