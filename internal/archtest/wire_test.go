package archtest

import (
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

// notWire are JSON-tagged structs of those packages that are not bodies of
// the botpay API, each with the reason.
var notWire = map[string]string{
	"internal/api.storedResponse": "the idempotency store's sealed record of an answer (status, content type, " +
		"body, holder), kept in the database, never sent",
	"client.readAsk.struct":         "a vendor's x402 402 answer (PAYMENT-REQUIRED or the v1 body), not a botpay body",
	"client.choose.struct":          "one offer of a vendor's x402 402 answer",
	"client.DecryptCardFile.struct": "the envelope of a rail5 card file, which arrives as a string inside a webhook's file_content",
	"client.CardDetails":            "the plaintext of a rail5 card file, decrypted on the bot from a webhook's file_content; never a body of the API",
	// MCP tool arguments that are not an endpoint's body: the idempotency
	// key goes in a header, the rest become query or path parameters.
	"internal/mcp.idempotency":           "a tool argument sent as the Idempotency-Key header",
	"internal/mcp.sendInvoiceInput":      "a path parameter and the idempotency key",
	"internal/mcp.listSalesInput":        "query parameters",
	"internal/mcp.listMessagesInput":     "query parameters",
	"internal/mcp.listTransactionsInput": "query parameters",
	"internal/mcp.checkoutStatusInput":   "a query parameter",
	"internal/mcp.searchVendorsInput":    "query parameters",
	"internal/mcp.vendorSkillInput":      "a path parameter",
	// The results of tools that are not one endpoint's answer.
	"internal/mcp.payInput":        "pay_x402_resource's arguments: a vendor's URL and request, not a botpay body",
	"internal/mcp.paidResourceOut": "pay_x402_resource's result: the vendor's answer and the settlement",
	"internal/mcp.skillFileOut":    "get_vendor_skill's result: a Markdown file with its slug",
	// The MCP protocol's own JSON-RPC envelope, read by botpay mcp's stdio.
	"internal/mcp.count.struct":           "a JSON-RPC message's id and method",
	"internal/mcp.answerDuplicate.struct": "a JSON-RPC message's id",
}

// handWrittenWireStructs lists "file: Type" for every struct type with a
// json tag declared in a non-generated file of pkgs that notWire does not
// name; an anonymous struct is named by its function ("file: func.struct").
func handWrittenWireStructs(files []sourceFile, pkgs []string) []string {
	var out []string
	for _, s := range taggedStructs(files, pkgs) {
		if notWire[s.key] == "" {
			out = append(out, s.path+": "+s.name)
		}
	}
	return out
}

// taggedStruct is one JSON-tagged struct type of the wire surface.
type taggedStruct struct{ path, name, key string }

func taggedStructs(files []sourceFile, pkgs []string) []taggedStruct {
	var out []taggedStruct
	for _, f := range files {
		if f.test || strings.HasSuffix(f.path, "_gen.go") || !inModule(f.pkg, pkgs...) {
			continue
		}
		pkg := f.pkg[len(module)+1:]
		for _, d := range f.ast.Decls {
			for _, name := range taggedStructsIn(d) {
				out = append(out, taggedStruct{path: f.path, name: name, key: pkg + "." + name})
			}
		}
	}
	return out
}

// taggedStructsIn names the JSON-tagged struct types of one declaration.
func taggedStructsIn(d ast.Decl) []string {
	var names []string
	named := map[*ast.StructType]bool{}
	ast.Inspect(d, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			if st, ok := n.Type.(*ast.StructType); ok && jsonTagged(st) {
				named[st] = true
				names = append(names, n.Name.Name)
			}
		case *ast.StructType:
			if !named[n] && jsonTagged(n) {
				fn, _ := d.(*ast.FuncDecl)
				where := "package"
				if fn != nil {
					where = fn.Name.Name
				}
				names = append(names, where+".struct")
			}
		}
		return true
	})
	return names
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
	for _, v := range handWrittenWireStructs(parseRepo(t), wireSurface) {
		t.Errorf("%s is a JSON body written by hand: use the generated type of package wire (or, if it is not a body of the API, say why in notWire)", v)
	}
}

// An exception outlives its struct only by mistake: a later struct of the
// same name would pass unseen.
func TestEveryWireExceptionNamesAStructThatExists(t *testing.T) {
	t.Parallel()
	found := map[string]bool{}
	for _, s := range taggedStructs(parseRepo(t), wireSurface) {
		found[s.key] = true
	}
	for key := range notWire {
		if !found[key] {
			t.Errorf("notWire names %s, which is no JSON-tagged struct of the wire surface any more", key)
		}
	}
}

func TestTheWireScanFindsAHandWrittenBody(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	src := "package api\ntype view struct{ ID string `json:\"id\"` }\nfunc read() { var v struct{ N int `json:\"n\"` }; _ = v }\n"
	f, err := parser.ParseFile(fset, "probe.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A package below one of wireSurface is held to it too (client/webhook).
	for _, pkg := range []string{"internal/api", "client/webhook"} {
		probe := sourceFile{path: pkg + "/probe.go", pkg: module + "/" + pkg, ast: f, fset: fset}
		got := handWrittenWireStructs([]sourceFile{probe}, wireSurface)
		if len(got) != 2 || !strings.HasSuffix(got[0], ": view") || !strings.HasSuffix(got[1], ": read.struct") {
			t.Fatalf("the scan misses a hand-written body in %s: %v", pkg, got)
		}
	}
}
