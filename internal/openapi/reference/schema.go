package reference

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/botpay/botpay/internal/openapi/build"
)

const schemaPrefix = "#/components/schemas/"

// maxFieldDepth bounds how deep inline objects are flattened into dotted
// field names.
const maxFieldDepth = 5

// typeOf names a schema's type: a component's name (linked), "array of X",
// "X or null", the type keyword, or the object/const/enum it is.
func typeOf(doc, s *build.Object) Type {
	if s == nil {
		return Type{Text: "any"}
	}
	if r := s.Str("$ref"); r != "" {
		name := strings.TrimPrefix(r, schemaPrefix)
		if name == r {
			return typeOf(doc, build.Resolve(doc, s))
		}
		return Type{Text: name, Link: SchemaID(name)}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts := build.ListOf(s.Get(key)); len(alts) > 0 {
			return alternatives(doc, alts)
		}
	}
	if parts := build.ListOf(s.Get("allOf")); len(parts) > 0 {
		return Type{Text: "object"}
	}
	switch t := s.Get("type").(type) {
	case string:
		if t == "array" {
			item := typeOf(doc, s.Obj("items"))
			return Type{Text: "array of " + item.Text, Link: item.Link}
		}
		return Type{Text: t}
	case []any:
		var names []string
		for _, item := range t {
			names = append(names, fmt.Sprint(item))
		}
		return Type{Text: strings.Join(names, " or ")}
	}
	switch {
	case s.Has("const"):
		return Type{Text: jsonType(s.Get("const"))}
	case s.Has("enum"):
		return Type{Text: enumType(s.Get("enum").([]any))}
	case s.Has("properties"):
		return Type{Text: "object"}
	}
	return Type{Text: "any"}
}

// alternatives names "A or B"; the link is kept when one alternative is a
// component and the rest null.
func alternatives(doc *build.Object, alts []*build.Object) Type {
	var names []string
	link := ""
	for _, alt := range alts {
		t := typeOf(doc, alt)
		if !slices.Contains(names, t.Text) {
			names = append(names, t.Text)
		}
		if t.Link != "" {
			link = t.Link
		}
	}
	if len(names) > 2 || (len(names) == 2 && names[1] != "null") {
		link = ""
	}
	return Type{Text: strings.Join(names, " or "), Link: link}
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case int64:
		return "integer"
	case float64:
		return "number"
	case nil:
		return "null"
	}
	return "any"
}

func enumType(values []any) string {
	var names []string
	for _, v := range values {
		if t := jsonType(v); !slices.Contains(names, t) {
			names = append(names, t)
		}
	}
	return strings.Join(names, " or ")
}

// constraintsOf lists what a value must be beyond its type.
func constraintsOf(doc, s *build.Object) string {
	s = build.Resolve(doc, s)
	if s == nil {
		return ""
	}
	var out []string
	for _, key := range []string{"anyOf", "oneOf"} {
		for _, alt := range build.ListOf(s.Get(key)) {
			if c := constraintsOf(doc, alt); c != "" {
				out = append(out, c)
			}
		}
	}
	if s.Has("const") {
		out = append(out, "always "+literal(s.Get("const")))
	}
	if values, ok := s.Get("enum").([]any); ok {
		var names []string
		for _, v := range values {
			names = append(names, literal(v))
		}
		out = append(out, "one of "+strings.Join(names, ", "))
	}
	bounds := []struct{ key, text string }{
		{"minimum", "≥ %v"}, {"exclusiveMinimum", "> %v"}, {"maximum", "≤ %v"}, {"exclusiveMaximum", "< %v"},
		{"minLength", "at least %v characters"}, {"maxLength", "at most %v characters"},
		{"minItems", "at least %v items"}, {"maxItems", "at most %v items"},
		{"format", "format %v"}, {"pattern", "matches `%v`"}, {"default", "default %v"},
	}
	for _, b := range bounds {
		if v := s.Get(b.key); v != nil {
			if b.key == "default" {
				v = literal(v)
			}
			out = append(out, fmt.Sprintf(b.text, v))
		}
	}
	if s.Get("additionalProperties") == false && s.Has("properties") {
		out = append(out, "no other fields")
	}
	return strings.Join(out, "; ")
}

// literal writes a JSON value as the reference quotes it.
func literal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return "`" + string(b) + "`"
}

// fieldsOf lists the members of an object schema, inline objects and the
// items of inline arrays flattened into dotted names; a schema that is a
// reference to a component object is opened when open is set (the top of
// a body or an answer), else named by its type.
func fieldsOf(doc, s *build.Object, prefix string, depth int, open bool) []Field {
	if s == nil || depth > maxFieldDepth {
		return nil
	}
	if s.Has("$ref") {
		if !open {
			return nil
		}
		s = build.Resolve(doc, s)
	}
	if alts := nonNull(doc, s); alts != nil {
		return fieldsOf(doc, alts, prefix, depth, open)
	}
	if parts := build.ListOf(s.Get("allOf")); len(parts) > 0 {
		return mergedFields(doc, parts, prefix, depth)
	}
	if typeOf(doc, s).Text == "array" || strings.HasPrefix(typeOf(doc, s).Text, "array of") {
		return fieldsOf(doc, s.Obj("items"), prefix+"[]", depth+1, open)
	}
	props := s.Obj("properties")
	if props == nil {
		return nil
	}
	required := build.RequiredOf(s)
	var out []Field
	for _, name := range props.Keys() {
		p := props.Obj(name)
		full := prefix + dot(prefix) + name
		out = append(out, Field{
			Name: full, Type: typeOf(doc, p), Required: slices.Contains(required, name),
			Constraints: constraintsOf(doc, p), Description: build.Describe(doc, p),
		})
		if !p.Has("$ref") {
			out = append(out, fieldsOf(doc, p, full, depth+1, false)...)
		}
	}
	return out
}

func dot(prefix string) string {
	if prefix == "" {
		return ""
	}
	return "."
}

// nonNull is the one alternative of "X or null" when X is an inline
// object or array worth opening.
func nonNull(doc, s *build.Object) *build.Object {
	alts := build.ListOf(s.Get("anyOf"))
	if len(alts) == 0 {
		alts = build.ListOf(s.Get("oneOf"))
	}
	if len(alts) != 2 {
		return nil
	}
	for i, alt := range alts {
		other := build.Resolve(doc, alts[1-i])
		if other != nil && other.Str("type") == "null" && !alt.Has("$ref") {
			return alt
		}
	}
	return nil
}

func mergedFields(doc *build.Object, parts []*build.Object, prefix string, depth int) []Field {
	var out []Field
	for _, part := range parts {
		for _, f := range fieldsOf(doc, part, prefix, depth, true) {
			i := slices.IndexFunc(out, func(g Field) bool { return g.Name == f.Name })
			if i < 0 {
				out = append(out, f)
				continue
			}
			if f.Description == "" {
				f.Description = out[i].Description
			}
			f.Required = f.Required || out[i].Required
			out[i] = f
		}
	}
	return out
}

// exampleText is a JSON example indented for reading.
func exampleText(v any) string {
	if v == nil {
		return ""
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimSuffix(b.String(), "\n")
}
