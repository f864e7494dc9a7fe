package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// wireSurface are the packages that read or write the API's bodies: their
// bodies are the generated types of package wire, never structs of their
// own, so a field of the API is named once, in the OpenAPI document.
var wireSurface = []string{"internal/api", "client", "internal/mcp"}

// pendingWireSurface are packages of wireSurface whose move to the
// generated types is not finished; the list only shrinks.
var pendingWireSurface = []string{"client", "internal/mcp"}

// notWire are JSON-tagged structs of those packages that are not bodies of
// the botpay API, each with the reason.
var notWire = map[string]string{
	"internal/api.storedResponse": "the idempotency store's sealed record of an answer (status, content type, " +
		"body, holder), kept in the database, never sent",
}

// handWrittenWireStructs lists "file: Type" for every struct type with a
// json tag declared in a non-generated file of pkgs.
func handWrittenWireStructs(files []sourceFile, pkgs []string) []string {
	var out []string
	for _, f := range files {
		if f.test || strings.HasSuffix(f.path, "_gen.go") || !inModule(f.pkg, pkgs...) {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			key := f.pkg[len(module)+1:] + "." + spec.Name.Name
			if st, ok := spec.Type.(*ast.StructType); ok && jsonTagged(st) && notWire[key] == "" {
				out = append(out, fmt.Sprintf("%s: %s", f.path, spec.Name.Name))
			}
			return true
		})
	}
	return out
}

func jsonTagged(st *ast.StructType) bool {
	return slices.ContainsFunc(st.Fields.List, func(f *ast.Field) bool {
		if f.Tag == nil {
			return false
		}
		_, ok := reflect.StructTag(strings.Trim(f.Tag.Value, "`")).Lookup("json")
		return ok
	})
}

func TestNoWireBodyIsWrittenByHand(t *testing.T) {
	t.Parallel()
	var done []string
	for _, pkg := range wireSurface {
		if !slices.Contains(pendingWireSurface, pkg) {
			done = append(done, pkg)
		}
	}
	for _, v := range handWrittenWireStructs(parseRepo(t), done) {
		t.Errorf("%s is a JSON body written by hand: use the generated type of package wire (or, if it is not a body of the API, say why in notWire)", v)
	}
}

func TestTheWireScanFindsAHandWrittenBody(t *testing.T) {
	t.Parallel()
	files := parseRepo(t)
	if got := handWrittenWireStructs(files, wireSurface); len(got) == 0 && len(pendingWireSurface) > 0 {
		t.Fatal("the scan finds no JSON-tagged struct even in packages not yet moved to package wire")
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "probe.go", "package api\ntype view struct{ ID string `json:\"id\"` }\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	probe := sourceFile{path: "internal/api/probe.go", pkg: module + "/internal/api", ast: f, fset: fset}
	if got := handWrittenWireStructs([]sourceFile{probe}, wireSurface); len(got) != 1 {
		t.Fatalf("the scan misses a hand-written body: %v", got)
	}
}
