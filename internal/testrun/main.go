// Command testrun is the repository's test command: `go run ./internal/testrun`
// (arguments go to `go test`, packages default to ./...). It sets up what the
// project pins (the npm folders, when node and npm are installed), says what
// only the system's package manager can install, runs `go test -json`,
// prints what plain `go test` prints, and ends with one line naming every
// suite that ran and every suite that was skipped, with why, then the counts.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func main() {
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		os.Exit(2)
	}
	setUp(root, os.Stdout)
	os.Exit(runTests(root, os.Args[1:]))
}

// repoRoot is the folder of go.mod, found upward from the working folder.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working folder")
		}
		dir = parent
	}
}

// runTests runs go test -json with args and reports; it returns the exit code.
func runTests(root string, args []string) int {
	args = withPackages(args)
	fmt.Printf("testrun: go test %s (the first run compiles everything and takes a few minutes)\n", strings.Join(args, " "))
	cmd := exec.Command("go", append([]string{"test", "-json"}, args...)...)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "testrun:", err)
		return 2
	}
	r := newReport(os.Stdout)
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 16<<20)
	for lines.Scan() {
		r.add(lines.Bytes())
	}
	waitErr := cmd.Wait()
	fmt.Print(r.summary())
	if waitErr != nil || r.failed > 0 {
		return 1
	}
	return 0
}

// withPackages adds ./... when args name no package (every argument is a
// flag, or a flag's value).
func withPackages(args []string) []string {
	for _, a := range args {
		if strings.HasPrefix(a, "./") || strings.HasPrefix(a, "github.com/") {
			return args
		}
	}
	return append(append([]string{}, args...), "./...")
}
