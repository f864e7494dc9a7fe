package main

import (
	"os"
	"runtime/debug"
)

// serverGCPercent is the collector's target for `botpay serve` when the
// operator has not set GOGC. The server's live heap is a few megabytes, so
// Go's default (collect when the heap doubles, with a 4 MB floor) ran a
// collection every ~60 ms under load, about a tenth of the server's CPU
// per checkout; at 400 the heap peaks near 20 MB and a checkout costs the
// server about 12 % less CPU (docs/performance.md).
const serverGCPercent = 400

// gcPercent says what serve sets: serverGCPercent, or nothing (-1) when
// GOGC is in the environment, which the runtime has applied already.
func gcPercent(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		return -1
	}
	return serverGCPercent
}

func tuneGC() {
	if p := gcPercent(os.Getenv); p >= 0 {
		debug.SetGCPercent(p)
	}
}
