package sdktest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// apiErrorCodes are the values of every Code… string constant of
// internal/botpay, where every code the service answers is declared.
func apiErrorCodes(t *testing.T, repo string) []string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, filepath.Join(repo, "internal", "botpay"), func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, pkg := range pkgs {
		for _, file := range pkg.Files {
			ast.Inspect(file, func(n ast.Node) bool {
				spec, ok := n.(*ast.ValueSpec)
				if !ok {
					return true
				}
				for i, name := range spec.Names {
					if !strings.HasPrefix(name.Name, "Code") || i >= len(spec.Values) {
						continue
					}
					if lit, ok := spec.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						value, _ := strconv.Unquote(lit.Value)
						codes = append(codes, value)
					}
				}
				return true
			})
		}
	}
	slices.Sort(codes)
	return slices.Compact(codes)
}

// typescriptErrorCodes are the values of the SDK's ErrorCode object.
func typescriptErrorCodes(t *testing.T, repo string) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repo, "sdk", "typescript", "src", "errors.ts"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)export const ErrorCode = \{(.*?)\} as const;`).FindSubmatch(src)
	if block == nil {
		t.Fatal("sdk/typescript/src/errors.ts has no `export const ErrorCode = {…} as const;`")
	}
	var codes []string
	for _, m := range regexp.MustCompile(`(?m)^\s*\w+: "([^"]*)",`).FindAllSubmatch(block[1], -1) {
		codes = append(codes, string(m[1]))
	}
	slices.Sort(codes)
	return codes
}

// The SDK's ErrorCode constants are exactly the codes the service answers:
// none missing, none invented, none misspelt. It needs no node.
func TestTypeScriptErrorCodesAreTheAPIs(t *testing.T) {
	t.Parallel()
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	api, sdk := apiErrorCodes(t, repo), typescriptErrorCodes(t, repo)
	if len(api) < 20 {
		t.Fatalf("found only %d codes in internal/botpay: %q", len(api), api)
	}
	for _, code := range api {
		if !slices.Contains(sdk, code) {
			t.Errorf("the API answers %q, which sdk/typescript's ErrorCode lacks", code)
		}
	}
	for _, code := range sdk {
		if !slices.Contains(api, code) {
			t.Errorf("sdk/typescript's ErrorCode has %q, which is no code of the API", code)
		}
	}
}
