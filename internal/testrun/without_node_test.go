package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSummaryLineAppearsOnAMachineWithoutNode runs the test command itself
// with only Go on its PATH and no suite required: it says node is missing,
// the node-based suite skips, and the summary line names it with why.
func TestSummaryLineAppearsOnAMachineWithoutNode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test in a child process")
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "testrun")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-count=1", "-run", "TestGeneratedTypeScriptClient", "./internal/openapi")
	cmd.Dir = root
	cmd.Env = []string{"PATH=" + pathWithout(t, "node", "nodejs", "npm", "npx")}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name != "PATH" && !strings.HasSuffix(name, "_REQUIRED") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the test command without node: %v\n%s", err, out)
	}
	for _, want := range []string{"node and npm are not installed", "suites ran: go, sqlite; skipped: openapi-typescript (", "0 failed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("without node the test command did not print %q:\n%s", want, out)
		}
	}
}

// pathWithout is a PATH with every program of this one but the hidden
// ones (links in a folder of the test's own), so the child builds exactly
// as this process does and finds no node.
func pathWithout(t *testing.T, hidden ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, from := range filepath.SplitList(os.Getenv("PATH")) {
		entries, _ := os.ReadDir(from)
		for _, e := range entries {
			if slices.Contains(hidden, e.Name()) {
				continue
			}
			_ = os.Symlink(filepath.Join(from, e.Name()), filepath.Join(dir, e.Name())) // the first on PATH wins
		}
	}
	return dir
}
