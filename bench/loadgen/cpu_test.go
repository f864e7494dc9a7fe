package main

import (
	"os"
	"strconv"
	"testing"
)

func TestDatabaseTicks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b cpuSample
		want int64
	}{
		{"a live backend counts what it gained",
			cpuSample{database: map[int]int64{10: 100}, parent: 1, reaped: 50},
			cpuSample{database: map[int]int64{10: 130}, parent: 1, reaped: 50}, 30},
		{"a backend that appeared counts from zero",
			cpuSample{database: map[int]int64{}, parent: 1},
			cpuSample{database: map[int]int64{11: 40}, parent: 1}, 40},
		{"a backend that exited counts what it took to its parent, less what it had used before",
			cpuSample{database: map[int]int64{10: 100}, parent: 1, reaped: 50},
			cpuSample{database: map[int]int64{11: 5}, parent: 1, reaped: 50 + 120}, 20 + 5},
		{"a backend that came and went counts whole",
			cpuSample{database: map[int]int64{10: 100}, parent: 1, reaped: 0},
			cpuSample{database: map[int]int64{10: 110}, parent: 1, reaped: 25}, 10 + 25},
		{"without a known parent only live backends count",
			cpuSample{database: map[int]int64{10: 100}},
			cpuSample{database: map[int]int64{11: 5}}, 5},
		{"with processes of two parents only live ones count",
			cpuSample{database: map[int]int64{10: 100}, parent: -1, reaped: 50},
			cpuSample{database: map[int]int64{11: 5}, parent: -1, reaped: 90}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := databaseTicks(tt.a, tt.b); got != tt.want {
				t.Errorf("databaseTicks = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestCommonParent(t *testing.T) {
	t.Parallel()
	if got := commonParent(commonParent(0, 7), 7); got != 7 {
		t.Errorf("two processes of parent 7: %d, want 7", got)
	}
	if got := commonParent(commonParent(commonParent(0, 7), 8), 7); got != -1 {
		t.Errorf("processes of parents 7 and 8: %d, want -1", got)
	}
}

func TestReadProcStatNamesTheParent(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system")
	}
	st, ok := readProcStat(strconv.Itoa(os.Getpid()))
	if !ok {
		t.Fatal("readProcStat of this process failed")
	}
	if st.parent != os.Getppid() {
		t.Errorf("parent = %d, want %d", st.parent, os.Getppid())
	}
}
