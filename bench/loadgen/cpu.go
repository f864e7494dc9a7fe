package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// CPU shows where the machine's processor time went during the measured
// phase, in cores (1.0 = one core busy for the whole phase). It is read from
// /proc, so it is only filled in on Linux. Other is every busy moment that
// was neither the server, the database processes nor loadgen: on a shared
// machine it says how much the figures were disturbed.
type CPU struct {
	Cores          int     `json:"cores"`
	Busy           float64 `json:"busy_cores"`
	Server         float64 `json:"server_cores"`
	Database       float64 `json:"database_cores"`
	Loadgen        float64 `json:"loadgen_cores"`
	Other          float64 `json:"other_cores"`
	ServerPerReqUS float64 `json:"server_cpu_us_per_request"`
	DBPerReqUS     float64 `json:"database_cpu_us_per_request"`
	LoadgenPerReq  float64 `json:"loadgen_cpu_us_per_request"`
}

// cpuWatch names the processes to account for: the server's pid and a
// command-line substring that picks the database processes (PostgreSQL
// backends show their database name in their command line).
type cpuWatch struct {
	serverPID int
	dbMatch   string
}

// cpuSample is one reading of cumulative clock ticks. reaped is what the
// database processes' parent (PostgreSQL's postmaster) holds of children
// that exited and were waited for: a backend that closes during the phase
// (the server replaces its connections every 30 s) takes its ticks there.
type cpuSample struct {
	at       time.Time
	busy     int64
	server   int64
	database map[int]int64
	parent   int
	reaped   int64
	self     int64
}

const clockTicks = 100 // USER_HZ; 100 on every Linux architecture Go supports

func (w cpuWatch) sample() (cpuSample, bool) {
	s := cpuSample{at: time.Now(), database: map[int]int64{}}
	busy, ok := systemBusyTicks()
	if !ok {
		return s, false
	}
	s.busy = busy
	s.self, _ = procTicks("self")
	if w.serverPID > 0 {
		s.server, _ = procTicks(strconv.Itoa(w.serverPID))
	}
	if w.dbMatch != "" {
		for _, pid := range pidsMatching(w.dbMatch) {
			if st, ok := readProcStat(strconv.Itoa(pid)); ok {
				s.database[pid] = st.ticks
				s.parent = commonParent(s.parent, st.parent)
			}
		}
	}
	if s.parent > 0 {
		st, _ := readProcStat(strconv.Itoa(s.parent))
		s.reaped = st.reapedTicks
	}
	return s, true
}

// commonParent is the parent of every process seen so far (seen, 0 before
// the first) and one more whose parent is parent; -1 once two differ (a
// matching process that is not a backend), and then no exited backend is
// counted.
func commonParent(seen, parent int) int {
	if seen == 0 || seen == parent {
		return parent
	}
	return -1
}

// databaseTicks is the database processes' CPU between two samples: what
// the live ones gained, and what those that exited took to their parent
// (all of a process that came and went, less what one known at a had
// already used; other children of the parent that exited count too, as
// autovacuum workers are the database's work).
func databaseTicks(a, b cpuSample) int64 {
	var db int64
	for pid, t := range b.database {
		db += t - a.database[pid]
	}
	if a.parent <= 0 || a.parent != b.parent {
		return db
	}
	for pid, t := range a.database {
		if _, alive := b.database[pid]; !alive {
			db -= t
		}
	}
	return db + b.reaped - a.reaped
}

// cpuBetween turns two samples into cores.
func cpuBetween(a, b cpuSample, requests int64) CPU {
	secs := b.at.Sub(a.at).Seconds()
	if secs <= 0 {
		return CPU{}
	}
	cores := func(ticks int64) float64 { return float64(ticks) / clockTicks / secs }
	db := databaseTicks(a, b)
	c := CPU{
		Cores:    numCPU(),
		Busy:     cores(b.busy - a.busy),
		Server:   cores(b.server - a.server),
		Database: cores(db),
		Loadgen:  cores(b.self - a.self),
	}
	c.Other = max(0, c.Busy-c.Server-c.Database-c.Loadgen)
	if requests > 0 {
		c.ServerPerReqUS = float64(b.server-a.server) / clockTicks / float64(requests) * 1e6
		c.DBPerReqUS = float64(db) / clockTicks / float64(requests) * 1e6
		c.LoadgenPerReq = float64(b.self-a.self) / clockTicks / float64(requests) * 1e6
	}
	for _, v := range []*float64{&c.Busy, &c.Server, &c.Database, &c.Loadgen, &c.Other, &c.ServerPerReqUS, &c.DBPerReqUS, &c.LoadgenPerReq} {
		*v = round2(*v)
	}
	return c
}

// systemBusyTicks is the first line of /proc/stat minus idle and iowait.
func systemBusyTicks() (int64, bool) {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, false
	}
	line, _, _ := bytes.Cut(raw, []byte("\n"))
	fields := strings.Fields(string(line))
	if len(fields) < 6 || fields[0] != "cpu" {
		return 0, false
	}
	var busy int64
	for i, f := range fields[1:] {
		v, _ := strconv.ParseInt(f, 10, 64)
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		if i >= 8 { // guest time is already counted in user
			break
		}
		busy += v
	}
	return busy, true
}

// procStat is what loadgen reads of /proc/<pid>/stat: the parent's pid
// (field 4), utime+stime (fields 14 and 15) and cutime+cstime, the ticks
// of children waited for (16 and 17).
type procStat struct {
	parent      int
	ticks       int64
	reapedTicks int64
}

// readProcStat parses /proc/<pid>/stat; the command name in field 2 may
// hold spaces, so parsing starts after it.
func readProcStat(pid string) (procStat, bool) {
	raw, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return procStat{}, false
	}
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return procStat{}, false
	}
	fields := strings.Fields(string(raw[i+1:]))
	if len(fields) < 15 {
		return procStat{}, false
	}
	n := make([]int64, 15)
	for k, f := range fields[:15] {
		if k == 0 { // state
			continue
		}
		if n[k], err = strconv.ParseInt(f, 10, 64); err != nil {
			return procStat{}, false
		}
	}
	return procStat{parent: int(n[1]), ticks: n[11] + n[12], reapedTicks: n[13] + n[14]}, true
}

func procTicks(pid string) (int64, bool) {
	st, ok := readProcStat(pid)
	return st.ticks, ok
}

func pidsMatching(substr string) []int {
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	var pids []int
	for _, path := range dirs {
		raw, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(raw, []byte(substr)) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(path))); err == nil && pid != os.Getpid() {
			pids = append(pids, pid)
		}
	}
	return pids
}

func numCPU() int {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	n := 0
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, "cpu") && len(line) > 3 && line[3] >= '0' && line[3] <= '9' {
			n++
		}
	}
	return n
}

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }
