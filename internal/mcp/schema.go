package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/botpay/botpay/internal/botpay"
)

// inputSchema infers the schema of a tool's arguments from T's fields and
// their jsonschema descriptions, then applies tweaks (enums, ranges).
// Arguments are strict: an unknown field is refused before any call, so a
// misspelt argument never passes unnoticed.
func inputSchema[T any](tweaks ...func(*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcp: input schema of %T: %v", *new(T), err))
	}
	for _, tweak := range tweaks {
		tweak(s)
	}
	return s
}

// outputSchema infers the schema of a tool's answer from T, which describes
// the endpoint's JSON body, and opens every object to properties it does
// not list: the service may add fields to an answer, and a client that
// validates structured output against this schema must keep accepting it.
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: numbers})
	if err != nil {
		panic(fmt.Sprintf("mcp: output schema of %T: %v", *new(T), err))
	}
	openObjects(s)
	return s
}

// numbers are the amount types that marshal as JSON numbers.
var numbers = map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[botpay.Micro](): {Type: "number"}}

// openObjects removes "additionalProperties": false everywhere in s.
func openObjects(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil {
		s.AdditionalProperties = nil
	}
	openObjects(s.AdditionalProperties)
	openObjects(s.Items)
	for _, p := range s.Properties {
		openObjects(p)
	}
}

// enum restricts property name to values.
func enum(name string, values ...string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		p := property(s, name)
		p.Enum = make([]any, len(values))
		for i, v := range values {
			p.Enum[i] = v
		}
	}
}

// itemsEnum restricts the items of array property name to values.
func itemsEnum(name string, values ...string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		p := property(s, name)
		p.Items.Enum = make([]any, len(values))
		for i, v := range values {
			p.Items.Enum[i] = v
		}
	}
}

func property(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties[name]
	if !ok {
		panic("mcp: schema has no property " + name)
	}
	return p
}

// withoutKeys is a JSON object minus the named members, other members kept
// byte for byte (numbers included, so amounts reach the endpoint exactly as
// the agent wrote them). Arguments naming a member twice are refused, as
// the endpoints refuse such bodies: the map below would keep the last one.
func withoutKeys(raw json.RawMessage, keys ...string) ([]byte, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return []byte("{}"), nil
	}
	if path, found := botpay.DuplicateJSONKey(raw); found {
		return nil, botpay.ValidationError(map[string]string{path: "is given more than once"})
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	for _, k := range keys {
		delete(fields, k)
	}
	return json.Marshal(fields)
}
