package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// version names this build in logs, the MCP handshake and `botpay version`:
// the module version the go command stamped (a tag, or a pseudo-version
// carrying the commit), so no -ldflags are needed.
var version = moduleVersion(debug.ReadBuildInfo())

func moduleVersion(info *debug.BuildInfo, ok bool) string {
	if !ok || info.Main.Version == "" {
		return "(devel)"
	}
	return info.Main.Version
}

// buildDescription is what `botpay version` prints: the module version,
// then the commit the binary was built from (with "modified" when the work
// tree had uncommitted changes) and the Go release that compiled it. A
// binary built outside a checkout (or a test binary) has no commit.
func buildDescription(info *debug.BuildInfo, ok bool) string {
	out := "botpay " + moduleVersion(info, ok) + "\n"
	if !ok {
		return out
	}
	vcs := map[string]string{}
	for _, s := range info.Settings {
		vcs[s.Key] = s.Value
	}
	if rev := vcs["vcs.revision"]; rev != "" {
		out += "revision " + rev
		if at := vcs["vcs.time"]; at != "" {
			out += " (" + at + ")"
		}
		if vcs["vcs.modified"] == "true" {
			out += " modified"
		}
		out += "\n"
	} else {
		out += "revision unknown (not built from a git checkout)\n"
	}
	return out + "go " + info.GoVersion + "\n"
}

func printVersion(stdout io.Writer) error {
	_, err := fmt.Fprint(stdout, buildDescription(debug.ReadBuildInfo()))
	return err
}
