package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// codePointer is a backticked path in a "Code:" list of docs/decisions.md:
// it holds a slash or names a Go or SQL file.
var codePointer = regexp.MustCompile("`([A-Za-z0-9_./-]+(?:/[A-Za-z0-9_./-]*|\\.go|\\.sql))`")

// codePointers returns the paths that the "Code:" lists of a Markdown text
// name; a list runs from "Code:" to the end of its paragraph.
func codePointers(markdown string) []string {
	var out []string
	for _, para := range strings.Split(markdown, "\n\n") {
		_, list, ok := strings.Cut(para, "Code:")
		if !ok {
			continue
		}
		for _, m := range codePointer.FindAllStringSubmatch(list, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// pointerExists finds a pointer from the repository root, or under
// internal/ where the decisions abbreviate "internal/store/db.go" to
// "store/db.go".
func pointerExists(root, pointer string) bool {
	for _, base := range []string{root, filepath.Join(root, "internal")} {
		if _, err := os.Stat(filepath.Join(base, filepath.FromSlash(pointer))); err == nil {
			return true
		}
	}
	return false
}

func TestDecisionsPointAtCodeThatExists(t *testing.T) {
	root := repoRoot(t)
	text, err := os.ReadFile(filepath.Join(root, "docs", "decisions.md"))
	if err != nil {
		t.Fatal(err)
	}
	pointers := codePointers(string(text))
	if len(pointers) < 50 {
		t.Fatalf("found only %d code pointers in docs/decisions.md", len(pointers))
	}
	for _, p := range pointers {
		if !pointerExists(root, p) {
			t.Errorf("docs/decisions.md points at %s, which does not exist", p)
		}
	}
}

func TestCodePointersAreReadFromCodeLists(t *testing.T) {
	t.Parallel()
	md := "## A\nText naming `store/elsewhere.go` outside a list.\nCode: `store/db.go`,\n" +
		"`api/routes.go` (`Server.Mount`), migration 0009.\n\n## B\nCode: `internal/archtest`, `store/migrations/`.\n"
	got := strings.Join(codePointers(md), " ")
	if want := "store/db.go api/routes.go internal/archtest store/migrations/"; got != want {
		t.Fatalf("pointers = %q, want %q", got, want)
	}
	root := repoRoot(t)
	if !pointerExists(root, "store/db.go") || pointerExists(root, "store/purchase_fastpath.go") {
		t.Fatal("pointerExists does not tell an existing file from a gone one")
	}
}
