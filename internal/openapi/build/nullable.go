package build

import (
	"slices"
	"strings"
)

// optionalMayBeNull lets every optional field of a JSON request body be
// null: the service reads null as "left out", as it always has.
func optionalMayBeNull(doc *Object) {
	done := map[*Object]bool{}
	paths := doc.Obj("paths")
	for _, path := range paths.Keys() {
		for _, method := range Methods {
			op := paths.Obj(path).Obj(method)
			if op == nil || !jsonBody(op) {
				continue
			}
			schema := op.Obj("requestBody").Obj("content").Obj("application/json").Obj("schema")
			nullableOptionals(doc, schema, done)
		}
	}
}

func nullableOptionals(doc, schema *Object, done map[*Object]bool) {
	if r := schema.Str("$ref"); r != "" {
		schema = resolve(doc, schema)
		if !strings.HasPrefix(r, "#/components/schemas/") {
			return
		}
	}
	if schema == nil || done[schema] {
		return
	}
	done[schema] = true
	if items := schema.Obj("items"); items != nil {
		nullableOptionals(doc, items, done)
	}
	props := schema.Obj("properties")
	if props == nil {
		return
	}
	required := RequiredOf(schema)
	for _, name := range props.Keys() {
		p := props.Obj(name)
		nullableOptionals(doc, p, done)
		if slices.Contains(required, name) {
			continue
		}
		null := NewObject()
		null.Set("type", "null")
		either := NewObject()
		either.Set("anyOf", []any{p, null})
		props.Set(name, either)
	}
}

func listOfAny(v any) []any {
	items, _ := v.([]any)
	return items
}
