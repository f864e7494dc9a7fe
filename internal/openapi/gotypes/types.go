package gotypes

import (
	"bytes"
	"fmt"
	"go/format"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/openapi/build"
)

// member is the field of property name of the struct parent.
func (g *gen) member(parent, name string, p *build.Object, required bool) field {
	f := field{Name: exported(name), JSON: name, Doc: describe(g.doc, p)}
	if n := g.memberName(p); n != "" {
		f.Name = n
	}
	typ, nullable := g.typeOf(parent+f.Name, p)
	bare := strings.HasPrefix(typ, "[]") || strings.HasPrefix(typ, "map[") ||
		typ == "json.RawMessage" || typ == "any" || strings.HasPrefix(typ, "*")
	switch {
	case required && !nullable:
		f.Type, f.Tag = typ, name
	case bare:
		f.Type, f.Tag = typ, name+",omitzero"
	default:
		f.Type, f.Tag = "*"+typ, name+",omitempty"
	}
	if required && nullable {
		f.Tag = name // null is written, not left out
	}
	return f
}

// memberName is the x-go-name of member p, also when the document's build
// wrapped an optional member in anyOf with null. An object's x-go-name
// inside such a wrapper names its type, not the member.
func (g *gen) memberName(p *build.Object) string {
	if n := p.Str("x-go-name"); n != "" {
		return n
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		for _, alt := range build.ListOf(p.Get(key)) {
			if n := alt.Str("x-go-name"); n != "" && !g.isObject(alt) {
				return n
			}
		}
	}
	return ""
}

// typeOf is the Go type of schema s, and whether s may be null; ctx names
// an inline object found in s.
func (g *gen) typeOf(ctx string, s *build.Object) (string, bool) {
	if s == nil {
		return "json.RawMessage", false
	}
	if t := s.Str("x-go-type"); t != "" {
		return strings.TrimPrefix(t, "*"), strings.HasPrefix(t, "*")
	}
	if ref := s.Str("$ref"); ref != "" {
		return g.refType(ctx, ref)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts := build.ListOf(s.Get(key)); len(alts) > 0 {
			return g.union(ctx, alts)
		}
	}
	if parts := build.ListOf(s.Get("allOf")); len(parts) == 1 {
		return g.typeOf(ctx, parts[0])
	}
	if g.isObject(s) {
		return g.declare(ctx, s, ""), false
	}
	kinds, nullable := typesOf(s)
	if len(kinds) != 1 {
		return "any", nullable
	}
	return g.scalar(ctx, kinds[0], s), nullable
}

func (g *gen) refType(ctx, ref string) (string, bool) {
	name := strings.TrimPrefix(ref, "#/components/schemas/")
	if t := special[name]; t != "" {
		return strings.TrimPrefix(t, "*"), strings.HasPrefix(t, "*")
	}
	target := g.doc.Obj("components").Obj("schemas").Obj(name)
	if g.isObject(target) {
		return g.declare(goName(name, target), target, ""), false
	}
	return g.typeOf(ctx, target)
}

// union is the type of anyOf/oneOf: X or null is a nullable X.
func (g *gen) union(ctx string, alts []*build.Object) (string, bool) {
	var rest []*build.Object
	for _, alt := range alts {
		if kinds, _ := typesOf(build.Resolve(g.doc, alt)); len(kinds) == 1 && kinds[0] == "null" {
			continue
		}
		rest = append(rest, alt)
	}
	nullable := len(rest) < len(alts)
	if len(rest) != 1 {
		return "any", nullable
	}
	typ, null := g.typeOf(ctx, rest[0])
	return typ, nullable || null
}

// typesOf lists the JSON types s allows, without null, and whether null is
// one of them; an enum or const without a type has its values' types.
func typesOf(s *build.Object) ([]string, bool) {
	var kinds []string
	switch t := s.Get("type").(type) {
	case string:
		kinds = []string{t}
	case []any:
		for _, k := range t {
			kinds = append(kinds, fmt.Sprint(k))
		}
	}
	if len(kinds) == 0 {
		kinds = valueKinds(s)
	}
	nullable := slices.Contains(kinds, "null")
	if len(kinds) == 1 && nullable {
		return kinds, false
	}
	return slices.DeleteFunc(kinds, func(k string) bool { return k == "null" }), nullable
}

// valueKinds are the JSON types of the values of s's enum or const.
func valueKinds(s *build.Object) []string {
	values, _ := s.Get("enum").([]any)
	if s.Has("const") {
		values = []any{s.Get("const")}
	}
	var kinds []string
	for _, v := range values {
		kind := "string"
		switch v.(type) {
		case nil:
			kind = "null"
		case bool:
			kind = "boolean"
		case int64:
			kind = "integer"
		case float64:
			kind = "number"
		}
		if !slices.Contains(kinds, kind) {
			kinds = append(kinds, kind)
		}
	}
	return kinds
}

func (g *gen) scalar(ctx, kind string, s *build.Object) string {
	switch kind {
	case "string":
		return "string"
	case "boolean":
		return "bool"
	case "integer":
		if s.Str("format") == "int64" {
			return "int64"
		}
		return "int"
	case "number":
		return "json.Number"
	case "array":
		items, _ := g.typeOf(singular(ctx), s.Obj("items"))
		return "[]" + items
	case "object":
		if ap := s.Obj("additionalProperties"); ap != nil {
			v, _ := g.typeOf(ctx+"Value", ap)
			return "map[string]" + v
		}
	}
	return "json.RawMessage"
}

// describe is a member's description, or that of the schema it names.
func describe(doc, s *build.Object) string {
	if d := s.Str("description"); d != "" {
		return strings.TrimSpace(d)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		for _, alt := range build.ListOf(s.Get(key)) {
			if d := describe(doc, alt); d != "" {
				return d
			}
		}
	}
	if s.Has("$ref") {
		if target := build.Resolve(doc, s); target != nil && target != s {
			return strings.TrimSpace(target.Str("description"))
		}
	}
	return ""
}

func (g *gen) render(pkg string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by internal/openapi/gen from internal/openapi/openapi.yaml. DO NOT EDIT.\n\npackage %s\n\n", pkg)
	b.WriteString("import \"encoding/json\"\n\nvar _ json.Number\n")
	for _, st := range g.structs {
		b.WriteString("\n" + comment(st.Doc, ""))
		fmt.Fprintf(&b, "type %s struct {\n", st.Name)
		for _, f := range st.Fields {
			if f.Doc != "" {
				b.WriteString(comment(f.Doc, "\t"))
			}
			fmt.Fprintf(&b, "\t%s %s %s\n", f.Name, f.Type, structTag(f))
		}
		b.WriteString("}\n")
	}
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gotypes: formatting the generated source: %w", err)
	}
	return out, nil
}

// wordAssignment is what jsonschema-go refuses at the start of a
// description ("WORD=" is kept for its future settings).
var wordAssignment = regexp.MustCompile(`^\w+=`)

// structTag is the field's tag: its JSON name and, for schema inference
// (the MCP tools' input and output schemas), its description on one line.
func structTag(f field) string {
	tag := "json:" + strconv.Quote(f.Tag)
	if d := strings.Join(strings.Fields(f.Doc), " "); d != "" && !wordAssignment.MatchString(d) {
		tag += " jsonschema:" + strconv.Quote(d)
	}
	if strings.Contains(tag, "`") {
		return strconv.Quote(tag)
	}
	return "`" + tag + "`"
}

func comment(text, indent string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		b.WriteString(indent + strings.TrimRight("// "+line, " ") + "\n")
	}
	return b.String()
}
