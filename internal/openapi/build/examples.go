package build

import (
	"regexp"
	"slices"
	"strings"
)

// maxExampleDepth bounds the recursion of a synthesized example, so a
// schema that refers to itself still ends.
const maxExampleDepth = 8

// addExamples gives every request body and JSON answer of the document an
// example when its source has none, synthesized from its schema, so the
// reference can show a request and an answer for every operation. A
// synthesized example is validated against its schema like a written one.
func addExamples(doc *Object) {
	paths := doc.Obj("paths")
	for _, path := range paths.Keys() {
		for _, method := range Methods {
			if op := paths.Obj(path).Obj(method); op != nil {
				exampleOperation(doc, op)
			}
		}
	}
	hooks := doc.Obj("webhooks")
	for _, event := range hooks.Keys() {
		if post := hooks.Obj(event).Obj("post"); post != nil {
			exampleOperation(doc, post)
		}
	}
	responses := doc.Obj("components").Obj("responses")
	for _, name := range responses.Keys() {
		r := responses.Obj(name)
		exampleContent(doc, r.Obj("content"))
		nameErrorCode(doc, r)
	}
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// nameErrorCode makes a shared error answer's example carry the first
// error code its description names, not a placeholder.
func nameErrorCode(doc, r *Object) {
	example, _ := r.Obj("content").Obj("application/json").Get("example").(*Object)
	if example == nil || !example.Has("error") || example.Str("error") != "error" {
		return
	}
	known := listOfAny(doc.Obj("components").Obj("schemas").Obj("Error").Get("x-error-codes"))
	for _, m := range codeSpan.FindAllStringSubmatch(r.Str("description"), -1) {
		if slices.Contains(known, any(m[1])) {
			example.Set("error", m[1])
			return
		}
	}
}

func exampleOperation(doc, op *Object) {
	if body := op.Obj("requestBody"); body != nil && !body.Has("$ref") {
		exampleContent(doc, body.Obj("content"))
	}
	responses := op.Obj("responses")
	for _, status := range responses.Keys() {
		if r := responses.Obj(status); r != nil && !r.Has("$ref") {
			exampleContent(doc, r.Obj("content"))
		}
	}
}

// exampleContent sets the example of each JSON or form media type that has
// a schema and no example.
func exampleContent(doc, content *Object) {
	if content == nil {
		return
	}
	for _, mt := range content.Keys() {
		media := content.Obj(mt)
		if media == nil || media.Has("example") || media.Has("examples") || media.Obj("schema") == nil {
			continue
		}
		if mt != "application/json" && mt != "application/x-www-form-urlencoded" {
			continue
		}
		if v := Example(doc, media.Obj("schema")); v != nil {
			media.Set("example", v)
		}
	}
}

// Example is a value valid by schema: the schema's own example, const,
// default or first enum member, else one built from its type and, for an
// object, from every property.
func Example(doc, schema *Object) any {
	return exampleOf(doc, schema, "", 0)
}

func exampleOf(doc, s *Object, name string, depth int) any {
	if s == nil || depth > maxExampleDepth {
		return nil
	}
	if s.Has("$ref") {
		target := resolve(doc, s)
		if target == s {
			return nil
		}
		if v, ok := ownExample(s); ok {
			return v
		}
		return exampleOf(doc, target, name, depth+1)
	}
	if v, ok := ownExample(s); ok {
		return v
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		if alts := listOf(s.Get(key)); len(alts) > 0 {
			return exampleOf(doc, firstNotNull(doc, alts), name, depth+1)
		}
	}
	if parts := listOf(s.Get("allOf")); len(parts) > 0 {
		return mergedExample(doc, parts, name, depth)
	}
	switch schemaType(s) {
	case "object":
		return objectExample(doc, s, depth)
	case "array":
		item := exampleOf(doc, s.Obj("items"), strings.TrimSuffix(name, "s"), depth+1)
		if item == nil {
			return []any{}
		}
		n := 1
		if m, ok := s.Get("minItems").(int64); ok && m > 1 {
			n = int(m)
		}
		return slices.Repeat([]any{item}, n)
	case "string":
		return stringExample(s, name)
	case "integer":
		return numberExample(s, true)
	case "number":
		return numberExample(s, false)
	case "boolean":
		return true
	}
	return nil
}

// ownExample is what the schema itself names as a valid value.
func ownExample(s *Object) (any, bool) {
	if s.Has("example") {
		return s.Get("example"), true
	}
	if list, ok := s.Get("examples").([]any); ok && len(list) > 0 {
		return list[0], true
	}
	if s.Has("const") {
		return s.Get("const"), true
	}
	if s.Has("default") {
		return s.Get("default"), true
	}
	if list, ok := s.Get("enum").([]any); ok && len(list) > 0 {
		return list[0], true
	}
	return nil, false
}

// schemaType is the schema's type, the first other than null of a list.
func schemaType(s *Object) string {
	switch t := s.Get("type").(type) {
	case string:
		return t
	case []any:
		for _, item := range t {
			if name, _ := item.(string); name != "null" {
				return name
			}
		}
	}
	if s.Has("properties") {
		return "object"
	}
	return ""
}

func firstNotNull(doc *Object, alts []*Object) *Object {
	for _, alt := range alts {
		if schemaType(resolve(doc, alt)) != "null" {
			return alt
		}
	}
	return alts[0]
}

func mergedExample(doc *Object, parts []*Object, name string, depth int) any {
	merged := NewObject()
	for _, part := range parts {
		v := exampleOf(doc, part, name, depth+1)
		o, ok := v.(*Object)
		if !ok {
			return v
		}
		for _, k := range o.Keys() {
			merged.Set(k, o.Get(k))
		}
	}
	return merged
}

func objectExample(doc, s *Object, depth int) any {
	out := NewObject()
	props := s.Obj("properties")
	if props == nil {
		return out
	}
	for _, name := range props.Keys() {
		if v := exampleOf(doc, props.Obj(name), name, depth+1); v != nil {
			out.Set(name, v)
		} else if isNullable(doc, props.Obj(name)) {
			out.Set(name, nil)
		}
	}
	return out
}

func isNullable(doc, s *Object) bool {
	s = resolve(doc, s)
	if s == nil {
		return false
	}
	if t, ok := s.Get("type").([]any); ok && slices.Contains(t, any("null")) {
		return true
	}
	return s.Str("type") == "null"
}

func numberExample(s *Object, integer bool) any {
	v := 12.5
	if integer {
		v = 1
	}
	if m, ok := number(s.Get("minimum")); ok {
		v = m
	} else if m, ok := number(s.Get("exclusiveMinimum")); ok {
		v = m + 1
	}
	if m, ok := number(s.Get("maximum")); ok && v > m {
		v = m
	}
	if integer {
		return int64(v)
	}
	return v
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// stringExample names a plausible value from the field's format or name.
func stringExample(s *Object, name string) string {
	switch s.Str("format") {
	case "email":
		return "ada@example.com"
	case "uri", "url":
		return "https://example.com/" + strings.ReplaceAll(name, "_", "-")
	case "date-time":
		return "2026-11-21T09:30:00.000Z"
	}
	switch {
	case strings.Contains(name, "email"):
		return "ada@example.com"
	case strings.HasSuffix(name, "url"):
		return "https://example.com/" + strings.ReplaceAll(strings.TrimSuffix(name, "_url"), "_", "-")
	case strings.HasSuffix(name, "_at"):
		return "2026-11-21T09:30:00.000Z"
	case name == "id":
		return "01JDQ8Z6X0A1B2C3"
	case strings.HasSuffix(name, "_id"):
		return strings.TrimSuffix(name, "id") + "01JDQ8Z6X0A1B2C3"
	case name == "":
		return "text"
	}
	v := strings.ReplaceAll(name, "_", " ")
	if m, ok := s.Get("minLength").(int64); ok && int64(len(v)) < m {
		v += strings.Repeat("x", int(m)-len(v))
	}
	return v
}

// ExampleNamed is Example for a value named name (a parameter or a
// field), whose name suggests a plausible string.
func ExampleNamed(doc, schema *Object, name string) any {
	return exampleOf(doc, schema, name, 0)
}
