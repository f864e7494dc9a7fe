package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// maxFuncLines bounds every function and function literal, tests included.
const maxFuncLines = 80

// longFunc is a function or func literal over the limit.
type longFunc struct {
	path, name  string
	line, lines int
}

func (l longFunc) String() string {
	return fmt.Sprintf("%s:%d %s (%d lines)", l.path, l.line, l.name, l.lines)
}

// longFuncs lists every function or func literal of files over the limit.
func longFuncs(files []sourceFile) []longFunc {
	var out []longFunc
	for _, f := range files {
		ast.Inspect(f.ast, func(n ast.Node) bool {
			var name string
			switch fn := n.(type) {
			case *ast.FuncDecl:
				name = fn.Name.Name
			case *ast.FuncLit:
				name = "func literal"
			default:
				return true
			}
			start, end := f.fset.Position(n.Pos()), f.fset.Position(n.End())
			if lines := end.Line - start.Line + 1; lines > maxFuncLines {
				out = append(out, longFunc{path: f.path, name: name, line: start.Line, lines: lines})
			}
			return true
		})
	}
	slices.SortFunc(out, func(a, b longFunc) int { return strings.Compare(a.String(), b.String()) })
	return out
}

func TestNoFunctionIsOverEightyLines(t *testing.T) {
	for _, long := range longFuncs(parseRepo(t)) {
		t.Errorf("%s: split it into named steps (at most %d lines)", long, maxFuncLines)
	}
}

func TestTheLengthScanFindsALongFunction(t *testing.T) {
	src := "package p\n\nfunc long() {\n" + strings.Repeat("\t_ = 1\n", maxFuncLines) + "}\n\nfunc short() {}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := longFuncs([]sourceFile{{path: "p.go", ast: f, fset: fset}})
	if len(got) != 1 || got[0].name != "long" || got[0].lines != maxFuncLines+2 {
		t.Fatalf("longFuncs = %v, want only long, of %d lines", got, maxFuncLines+2)
	}
}
