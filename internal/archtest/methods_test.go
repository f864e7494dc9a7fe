package archtest

import (
	"fmt"
	"go/ast"
	"sort"
	"testing"
)

// maxExportedMethods bounds the exported methods of one type of the
// service (internal/): a type with more has become a drawer of several
// capabilities. The public SDK's clients are flat on purpose, one method
// per operation of the API, and are not counted.
const maxExportedMethods = 40

// exportedMethods counts, per "package.Type" of non-test files, the
// exported methods declared on the type or its pointer.
func exportedMethods(files []sourceFile) map[string]int {
	counts := map[string]int{}
	for _, f := range files {
		if f.test || !inModule(f.pkg, "internal") {
			continue
		}
		for _, d := range f.ast.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 || !fn.Name.IsExported() {
				continue
			}
			if name := receiverType(fn.Recv.List[0].Type); name != "" {
				counts[f.pkg[len(module)+1:]+"."+name]++
			}
		}
	}
	return counts
}

func receiverType(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiverType(t.X)
	case *ast.IndexExpr: // a generic receiver
		return receiverType(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// overLimit lists the types with more exported methods than they may have.
func overLimit(counts map[string]int) []string {
	var out []string
	for typ, n := range counts {
		if n > maxExportedMethods {
			out = append(out, fmt.Sprintf("%s has %d exported methods, at most %d", typ, n, maxExportedMethods))
		}
	}
	sort.Strings(out)
	return out
}

func TestNoTypeHasMoreThanFortyExportedMethods(t *testing.T) {
	counts := exportedMethods(parseRepo(t))
	for _, v := range overLimit(counts) {
		t.Error(v)
	}
	for _, typ := range []string{"internal/app.Service", "internal/store.Store"} {
		t.Logf("%s: %d exported methods", typ, counts[typ])
	}
}

func TestTheMethodLimitCatchesADrawer(t *testing.T) {
	counts := map[string]int{"internal/bots.Service": maxExportedMethods + 1, "internal/kernel.Tx": 12,
		"internal/app.Service": maxExportedMethods}
	got := overLimit(counts)
	if len(got) != 1 {
		t.Fatalf("over the limit: %v; want the one drawer", got)
	}
}
