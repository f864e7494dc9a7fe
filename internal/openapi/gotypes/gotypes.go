// Package gotypes generates the Go wire types of the bot API from the
// OpenAPI document: one struct per object schema of components, and one per
// request body and answer written inline in an operation. The api, client
// and mcp packages use these types, so a field is named in one place only.
//
// Rules, so that a reader can predict a type from the document:
//   - A required member is a value; a member that may be null, or that is
//     optional, is a pointer (omitted when nil, so "absent" and "zero"
//     stay different), except lists, maps and raw JSON, which are left out
//     only when nil.
//   - integer is int, or int64 with format int64; number is json.Number
//     (exact), except the money schemas, which have types of their own
//     (USD, Timestamp, written by hand beside the generated file).
//   - An inline object is named after its parent and member (Task's
//     instructions → TaskInstructions; the items of line_items → LineItem);
//     x-go-name on a schema and x-go-type on a member override the rule.
//   - A union of different types (string or integer) is any.
package gotypes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/botpay/botpay/internal/openapi/build"
)

// special are component schemas with a hand-written Go type.
var special = map[string]string{
	"Timestamp": "Timestamp", "NullableTimestamp": "*Timestamp",
	"USD": "USD", "NullableUSD": "*USD", "USDInput": "USD", "NullableUSDInput": "*USD",
	"Money3": "json.Number",
}

// structType is one generated struct.
type structType struct {
	Name, Doc string
	Fields    []field
}

type field struct{ Name, JSON, Type, Tag, Doc string }

type gen struct {
	doc     *build.Object
	structs []*structType
	names   map[string]bool
	seen    map[*build.Object]string // schema → its struct's name
}

// Generate renders the Go types of doc as the source of package pkg.
func Generate(doc *build.Object, pkg string) ([]byte, error) {
	g := &gen{doc: doc, names: map[string]bool{}, seen: map[*build.Object]string{}}
	schemas := doc.Obj("components").Obj("schemas")
	for _, name := range schemas.Keys() {
		s := schemas.Obj(name)
		if special[name] != "" || !g.isObject(s) {
			continue
		}
		g.declare(goName(name, s), s, "")
	}
	g.operations()
	return g.render(pkg)
}

func goName(name string, s *build.Object) string {
	if n := s.Str("x-go-name"); n != "" {
		return n
	}
	return exported(name)
}

// isObject reports whether s (after references) is a schema with members.
func (g *gen) isObject(s *build.Object) bool {
	s = build.Resolve(g.doc, s)
	if s == nil {
		return false
	}
	if s.Obj("properties") != nil {
		return true
	}
	parts := build.ListOf(s.Get("allOf"))
	return len(parts) > 1 && slices.ContainsFunc(parts, g.isObject)
}

// operations declares the request bodies and answers written inline.
func (g *gen) operations() {
	paths := g.doc.Obj("paths")
	for _, path := range paths.Keys() {
		for _, method := range build.Methods {
			op := paths.Obj(path).Obj(method)
			if op == nil {
				continue
			}
			id := exported(op.Str("operationId"))
			where := strings.ToUpper(method) + " " + path
			if s := jsonSchema(op.Obj("requestBody")); s != nil && !s.Has("$ref") && g.isObject(s) {
				g.declare(id+"Request", s, "the request body of "+where)
			}
			g.answers(op, id, where)
		}
	}
}

// answers declares the inline answers of an operation: the first success
// is <id>Response, any other <id>Response<status> (signing's 202 would be
// SignX402PaymentResponse202; the document names it SigningHeld).
func (g *gen) answers(op *build.Object, id, where string) {
	responses := op.Obj("responses")
	declared := 0
	for _, status := range responses.Keys() {
		if !strings.HasPrefix(status, "2") {
			continue
		}
		s := jsonSchema(build.Resolve(g.doc, responses.Obj(status)))
		if s == nil || s.Has("$ref") || !g.isObject(s) || g.seen[s] != "" {
			continue
		}
		name := id + "Response"
		if declared > 0 {
			name += status
		}
		g.declare(name, s, "the answer "+status+" of "+where)
		declared++
	}
}

func jsonSchema(o *build.Object) *build.Object {
	return o.Obj("content").Obj("application/json").Obj("schema")
}

// declare adds the struct of object schema s under name (made unique) and
// returns the name it got.
func (g *gen) declare(name string, s *build.Object, what string) string {
	if got := g.seen[s]; got != "" {
		return got
	}
	if n := s.Str("x-go-name"); n != "" {
		name = n
	}
	for base, i := name, 2; g.names[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	g.names[name] = true
	g.seen[s] = name
	st := &structType{Name: name, Doc: typeDoc(name, what, s.Str("description"))}
	g.structs = append(g.structs, st)
	props, required := g.members(s)
	for _, p := range props.Keys() {
		st.Fields = append(st.Fields, g.member(name, p, props.Obj(p), slices.Contains(required, p)))
	}
	return name
}

func typeDoc(name, what, description string) string {
	doc := name + " is " + what + "."
	if what == "" {
		doc = name + " is a schema of the bot API."
	}
	if description = strings.TrimSpace(description); description != "" {
		doc += "\n" + description
	}
	return doc
}

// members merges the properties and required lists of s and its allOf.
func (g *gen) members(s *build.Object) (*build.Object, []string) {
	s = build.Resolve(g.doc, s)
	props, required := build.NewObject(), build.RequiredOf(s)
	for _, part := range build.ListOf(s.Get("allOf")) {
		p, r := g.members(part)
		for _, k := range p.Keys() {
			props.Set(k, p.Get(k))
		}
		required = append(required, r...)
	}
	own := s.Obj("properties")
	for _, k := range own.Keys() {
		props.Set(k, own.Get(k))
	}
	return props, required
}
