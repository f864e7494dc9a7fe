package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/botpay/botpay"

// sourceFile is one parsed Go file of the repository.
type sourceFile struct {
	path    string // relative to the repository root, slash-separated
	pkg     string // import path of its directory
	test    bool   // a _test.go file
	imports []string
	ast     *ast.File
	fset    *token.FileSet
}

// repoRoot is the module root: two directories above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(filepath.Dir(wd))
}

// skippedDir holds no Go code of the project: dependencies, fixtures, VCS.
func skippedDir(name string) bool {
	return name == "node_modules" || name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".")
}

// parseRepo parses every Go file of the repository.
func parseRepo(t *testing.T) []sourceFile {
	t.Helper()
	root := repoRoot(t)
	var files []sourceFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skippedDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parseFile(root, path)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("found only %d Go files under %s", len(files), root)
	}
	return files
}

func parseFile(root, path string) (sourceFile, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return sourceFile{}, err
	}
	rel, _ := filepath.Rel(root, path)
	rel = filepath.ToSlash(rel)
	pkg := module
	if dir := filepath.ToSlash(filepath.Dir(rel)); dir != "." {
		pkg += "/" + dir
	}
	sf := sourceFile{path: rel, pkg: pkg, test: strings.HasSuffix(rel, "_test.go"), ast: f, fset: fset}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		sf.imports = append(sf.imports, p)
	}
	return sf, nil
}
