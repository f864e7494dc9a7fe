package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// npmFolder is a folder whose npm packages the project pins
// (package-lock.json) for a suite of tests.
type npmFolder struct {
	dir        string
	runScripts bool // anvil's postinstall links its binary
}

// npmFolders are every pinned npm folder of the repository.
var npmFolders = []npmFolder{
	{dir: "interop"}, {dir: "interop/webhooks"}, {dir: "interop/mcp"}, {dir: "tsclient"}, {dir: "sdk/typescript"},
	{dir: "chain", runScripts: true}, {dir: "browser", runScripts: true},
}

// systemTools are what only the system's package manager installs; the
// suites that need them skip (and say so) without them.
var systemTools = []struct{ path, hint string }{
	{"chromium", "browser tests: apt-get install chromium"},
	{"pdftotext", "the invoice PDF test: apt-get install poppler-utils"},
	{"jq", "the README walk-through test: apt-get install jq"},
	{"curl", "the README walk-through test: apt-get install curl"},
}

// setUp installs the pinned npm folders that are missing or stale, and
// names the system tools that are missing. Nothing here is fatal: the
// suites that need what is missing skip and the summary says why.
func setUp(root string, out io.Writer) {
	if _, err := exec.LookPath("npm"); err != nil {
		fmt.Fprintln(out, "testrun: node and npm are not installed (Debian: apt-get install nodejs npm): the npm-based suites will skip")
	} else {
		for _, f := range npmFolders {
			f.install(root, out)
		}
	}
	var missing []string
	for _, tool := range systemTools {
		if _, err := exec.LookPath(tool.path); err != nil {
			missing = append(missing, tool.path+" ("+tool.hint+")")
		}
	}
	if len(missing) > 0 {
		fmt.Fprintln(out, "testrun: not installed, from the system's package manager:", strings.Join(missing, "; "))
	}
}

// install runs npm ci in the folder unless node_modules is newer than the
// lock file.
func (f npmFolder) install(root string, out io.Writer) {
	dir := filepath.Join(root, f.dir)
	lock, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return
	}
	if installed, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err == nil && !installed.ModTime().Before(lock.ModTime()) {
		return
	}
	args := []string{"ci", "--no-audit", "--no-fund", "--loglevel=error"}
	if !f.runScripts {
		args = append(args, "--ignore-scripts")
	}
	fmt.Fprintf(out, "testrun: npm %s (in %s)\n", strings.Join(args, " "), f.dir)
	start := time.Now()
	cmd := exec.Command("npm", args...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(out, "testrun: npm ci in %s failed after %s (its suite will skip or fail): %v\n%s", f.dir, time.Since(start).Round(time.Second), err, b)
	}
}
