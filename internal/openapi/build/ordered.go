package build

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Object is a JSON object that keeps the order of its keys, so the
// generated document reads in the order the YAML source was written.
type Object struct {
	keys   []string
	values map[string]any
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{values: map[string]any{}} }

// Get returns the value of key, or nil (also of a nil object).
func (o *Object) Get(key string) any {
	if o == nil {
		return nil
	}
	return o.values[key]
}

// Obj returns the value of key when it is an object.
func (o *Object) Obj(key string) *Object {
	v, _ := o.Get(key).(*Object)
	return v
}

// Str returns the value of key when it is a string.
func (o *Object) Str(key string) string {
	v, _ := o.Get(key).(string)
	return v
}

// Has reports whether key is present.
func (o *Object) Has(key string) bool {
	if o == nil {
		return false
	}
	_, ok := o.values[key]
	return ok
}

// Set sets key, appending it when new.
func (o *Object) Set(key string, v any) {
	if _, ok := o.values[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.values[key] = v
}

// Delete removes key.
func (o *Object) Delete(key string) {
	if _, ok := o.values[key]; !ok {
		return
	}
	delete(o.values, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// Keys lists the keys in order.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return append([]string(nil), o.keys...)
}

// MarshalJSON writes the keys in order.
func (o *Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(k)
		b.Write(key)
		b.WriteByte(':')
		val, err := marshal(o.values[k])
		if err != nil {
			return nil, err
		}
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// clone copies v deeply.
func clone(v any) any {
	switch v := v.(type) {
	case *Object:
		c := NewObject()
		for _, k := range v.keys {
			c.Set(k, clone(v.values[k]))
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, item := range v {
			c[i] = clone(item)
		}
		return c
	default:
		return v
	}
}

// fromYAML converts a YAML node into objects, arrays and scalars.
func fromYAML(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		return fromYAML(n.Content[0])
	case yaml.AliasNode:
		return fromYAML(n.Alias)
	case yaml.MappingNode:
		o := NewObject()
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := fromYAML(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			o.Set(n.Content[i].Value, v)
		}
		return o, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := fromYAML(c)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.ScalarNode:
		return scalar(n)
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node kind %d", n.Line, n.Kind)
}

func scalar(n *yaml.Node) (any, error) {
	switch n.Tag {
	case "!!null":
		return nil, nil
	case "!!bool":
		return n.Value == "true", nil
	case "!!int":
		return strconv.ParseInt(n.Value, 10, 64)
	case "!!float":
		return strconv.ParseFloat(n.Value, 64)
	case "!!str", "":
		return n.Value, nil
	}
	return nil, fmt.Errorf("line %d: unsupported YAML tag %s", n.Line, n.Tag)
}

// Parse reads a YAML or JSON document into objects, arrays and scalars,
// keeping the order of keys, without expanding anything.
func Parse(src []byte) (*Object, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(src, &n); err != nil {
		return nil, err
	}
	v, err := fromYAML(&n)
	if err != nil {
		return nil, err
	}
	doc, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf("not a mapping")
	}
	return doc, nil
}

// Resolve follows a local $ref of the document.
func Resolve(doc, o *Object) *Object { return resolve(doc, o) }

// ListOf returns the objects of a JSON array.
func ListOf(v any) []*Object { return listOf(v) }

func listOf(v any) []*Object {
	items, _ := v.([]any)
	out := make([]*Object, 0, len(items))
	for _, item := range items {
		if o, ok := item.(*Object); ok {
			out = append(out, o)
		}
	}
	return out
}

// resolve follows a local $ref.
func resolve(doc, o *Object) *Object {
	for o != nil && o.Has("$ref") {
		cur := doc
		for _, part := range strings.Split(strings.TrimPrefix(o.Str("$ref"), "#/"), "/") {
			cur = cur.Obj(part)
		}
		if cur == nil {
			return o
		}
		o = cur
	}
	return o
}

// RequiredOf lists the members schema s requires.
func RequiredOf(s *Object) []string {
	var out []string
	for _, r := range listOfAny(s.Get("required")) {
		if name, ok := r.(string); ok {
			out = append(out, name)
		}
	}
	return out
}

// Describe is a schema's description, or that of the alternative or the
// component it names.
func Describe(doc, s *Object) string {
	if d := s.Str("description"); d != "" {
		return strings.TrimSpace(d)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		for _, alt := range listOf(s.Get(key)) {
			if d := Describe(doc, alt); d != "" {
				return d
			}
		}
	}
	if s.Has("$ref") {
		if target := resolve(doc, s); target != nil && target != s {
			return strings.TrimSpace(target.Str("description"))
		}
	}
	return ""
}
