package main

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/suite"
)

// readmeWalkThrough are the README sections whose shell blocks make one
// walk-through, run top to bottom in one shell as a newcomer pastes them.
var readmeWalkThrough = []string{
	"## Walk-through with curl",
	"### Lists page with cursors",
	"## Spending with curl",
	"## Keys and accounts with curl",
}

// The README's walk-through runs as written against `botpay serve` on its
// defaults (SQLite in ./botpay-data, sandbox), twice in a row on the same
// data folder: no placeholder, every id captured, every call answered
// 2xx, every page it opens there.
func TestReadmeWalkThroughRunsTwiceOnOneDataFolder(t *testing.T) {
	t.Parallel()
	var missing []string
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool+" is not installed")
		}
	}
	suite.Readme.Need(t, missing...)
	script := readmeScript(t)
	bin, err := buildBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	addr := freeAddr(t) // links in answers name the port, so it is chosen before the start
	p := startBinaryIn(t, bin, dir, []string{"BOTPAY_ADDR=" + addr, "BOTPAY_BASE_URL=http://" + addr,
		"DATABASE_URL=", "BOTPAY_DATA_DIR="})
	for run := 1; run <= 2; run++ {
		opened := runWalkThrough(t, dir, p.url, script)
		for _, url := range opened {
			checkPageAnswers(t, url)
		}
		if len(opened) < 2 {
			t.Errorf("run %d opened %d pages; the walk-through shows the buyer page and the receipt", run, len(opened))
		}
	}
}

// failOnErrorAnswers makes any command that fails, and any call answered
// 4xx or 5xx, end the run with the answer; asking an x402 resource for its
// price without paying answers 402 by design.
const failOnErrorAnswers = `set -euo pipefail
curl() {
  case "$*" in
  *X-PAYMENT:* | *PAYMENT-SIGNATURE:*) command curl --fail-with-body --show-error "$@" ;;
  */x402*) command curl --show-error "$@" ;;
  *) command curl --fail-with-body --show-error "$@" ;;
  esac
}
`

// readmeScript is the walk-through's shell blocks in order, after a prelude
// that makes any failed call end the run with its answer.
func readmeScript(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(failOnErrorAnswers)
	for _, heading := range readmeWalkThrough {
		block, ok := shellBlockUnder(string(readme), heading)
		if !ok {
			t.Fatalf("README has no sh block under %q", heading)
		}
		b.WriteString(block)
	}
	return b.String()
}

// shellBlockUnder is the first ```sh block after heading.
func shellBlockUnder(doc, heading string) (string, bool) {
	_, after, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		return "", false
	}
	_, after, ok = strings.Cut(after, "```sh\n")
	if !ok {
		return "", false
	}
	block, _, ok := strings.Cut(after, "```\n")
	return block, ok
}

// runWalkThrough runs script in dir with B set to url; a stand-in xdg-open
// records what the walk-through opens, which it returns.
func runWalkThrough(t *testing.T, dir, url, script string) []string {
	t.Helper()
	stubs := t.TempDir()
	openedFile := filepath.Join(stubs, "opened")
	stub := "#!/bin/sh\necho \"$1\" >> " + openedFile + "\n"
	if err := os.WriteFile(filepath.Join(stubs, "xdg-open"), []byte(stub), 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), "bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "B="+url, "PATH="+stubs+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README walk-through stopped: %v\n%s", err, out)
	}
	opened, err := os.ReadFile(openedFile)
	if err != nil {
		return nil
	}
	return strings.Fields(string(opened))
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func checkPageAnswers(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s (opened by the walk-through) = %d, want 200", url, resp.StatusCode)
	}
}
