package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

// inputSchema infers the schema of a tool's arguments from T's fields and
// their jsonschema descriptions, then applies tweaks (enums, ranges).
// Arguments are strict: an unknown field is refused before any call, so a
// misspelt argument never passes unnoticed.
func inputSchema[T any](tweaks ...func(*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: wireTypes})
	if err != nil {
		panic(fmt.Sprintf("mcp: input schema of %T: %v", *new(T), err))
	}
	for _, tweak := range tweaks {
		tweak(s)
	}
	return s
}

// outputSchema infers the schema of a tool's answer from T, the client's
// type of the endpoint's answer (or the tool's own output), then applies
// tweaks (descriptions). It opens every object to properties it does not
// list, as the service may add fields to an answer, and requires none: the
// client's types say which fields an answer may hold, not which every
// answer holds (approved comes only with a checkout, x_payment_header not
// with a held signature), and a client that validates structured output
// against this schema must accept every answer the endpoint gives.
func outputSchema[T any](tweaks ...func(*jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: wireTypes})
	if err != nil {
		panic(fmt.Sprintf("mcp: output schema of %T: %v", *new(T), err))
	}
	loosen(s)
	for _, tweak := range tweaks {
		tweak(s)
	}
	return s
}

// wireTypes are the schemas of the types whose JSON form is not their Go
// kind: amounts marshal as JSON numbers, times as strings, a raw message
// as any value.
var wireTypes = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[botpay.Micro]():    {Type: "number"},
	reflect.TypeFor[client.USD]():      {Type: "number"},
	reflect.TypeFor[wire.Timestamp]():  {Type: "string", Format: "date-time"},
	reflect.TypeFor[json.Number]():     {Type: "number"},
	reflect.TypeFor[json.RawMessage](): {},
}

// loosen removes "additionalProperties": false and every required list
// in s.
func loosen(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil {
		s.AdditionalProperties = nil
	}
	s.Required = nil
	loosen(s.AdditionalProperties)
	loosen(s.Items)
	for _, p := range s.Properties {
		loosen(p)
	}
}

// describe gives the property at path (names separated by dots; arrays
// and maps are entered on the way) a description for the agent.
func describe(path, text string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		for _, name := range strings.Split(path, ".") {
			s = property(elements(s), name)
		}
		s.Description = text
	}
}

// elements is the schema of what s holds when it is an array or a map,
// else s.
func elements(s *jsonschema.Schema) *jsonschema.Schema {
	switch {
	case s.Items != nil:
		return s.Items
	case s.Properties == nil && s.AdditionalProperties != nil:
		return s.AdditionalProperties
	}
	return s
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
