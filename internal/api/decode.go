package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"slices"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
)

// MaxBodyBytes caps every request body.
const MaxBodyBytes = 1 << 20

// object is a decoded JSON object whose fields are read one by one with
// their expected types; every problem is collected under the field's name so
// a single answer names them all. Unknown fields are ignored.
type object struct {
	prefix   string
	fields   map[string]json.RawMessage
	problems map[string]string
}

func readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(r.Body)
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, botpay.Errorf(botpay.KindTooLarge, botpay.CodePayloadTooLarge, "request body is larger than %d bytes", MaxBodyBytes)
	}
	if err != nil {
		return nil, botpay.Errorf(botpay.KindInvalid, botpay.CodeInvalidJSON, "request body could not be read")
	}
	return body, nil
}

// decodeObject parses a JSON object body. Empty bodies, malformed JSON,
// trailing data and non-object bodies are invalid_json.
func decodeObject(data []byte) (*object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, botpay.Errorf(botpay.KindInvalid, botpay.CodeInvalidJSON, "request body is empty; send a JSON object")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, botpay.Errorf(botpay.KindInvalid, botpay.CodeInvalidJSON, "request body must be a JSON object")
		}
		return nil, botpay.Errorf(botpay.KindInvalid, botpay.CodeInvalidJSON, "request body is not valid JSON: %s", err.Error())
	}
	if fields == nil { // the literal null
		return nil, botpay.Errorf(botpay.KindInvalid, botpay.CodeInvalidJSON, "request body must be a JSON object")
	}
	if err := refuseDuplicateKeys(data); err != nil {
		return nil, err
	}
	return &object{fields: fields, problems: map[string]string{}}, nil
}

// parseObject reads and decodes the request body.
func parseObject(r *http.Request) (*object, error) {
	data, err := readBody(r)
	if err != nil {
		return nil, err
	}
	return decodeObject(data)
}

func (o *object) fail(name, problem string) {
	if _, seen := o.problems[o.prefix+name]; !seen {
		o.problems[o.prefix+name] = problem
	}
}

// err reports the collected problems as one validation_error.
func (o *object) err() error {
	if len(o.problems) == 0 {
		return nil
	}
	return botpay.ValidationError(o.problems)
}

// raw returns the field unless it is absent or null.
func (o *object) raw(name string, required field) (json.RawMessage, bool) {
	v, ok := o.fields[name]
	if !ok || string(v) == "null" {
		if required == requiredField {
			o.fail(name, "is required")
		}
		return nil, false
	}
	return v, true
}

// present reports whether the field was sent at all (null counts).
func (o *object) present(name string) bool {
	_, ok := o.fields[name]
	return ok
}

// field says whether a request field must be sent.
type field bool

const (
	requiredField field = true
	optionalField field = false
)

// required reads a string field that must be sent and not be blank.
func (o *object) required(name string) string { return o.str(name, requiredField) }

// optional reads a string field that may be absent or null ("").
func (o *object) optional(name string) string { return o.str(name, optionalField) }

func (o *object) str(name string, required field) string {
	v, ok := o.raw(name, required)
	if !ok {
		return ""
	}
	var s string
	if v[0] != '"' || json.Unmarshal(v, &s) != nil {
		o.fail(name, "must be a string")
		return ""
	}
	if !botpay.CleanText(s) { // "\u0000": PostgreSQL refuses NUL in text
		o.fail(name, botpay.TextProblem)
		return ""
	}
	if required == requiredField && strings.TrimSpace(s) == "" {
		o.fail(name, "is required")
	}
	return s
}

// optStr is nil when absent or null.
func (o *object) optStr(name string) *string {
	if _, ok := o.raw(name, optionalField); !ok {
		return nil
	}
	s := o.optional(name)
	return &s
}

func (o *object) boolean(name string) *bool {
	v, ok := o.raw(name, optionalField)
	if !ok {
		return nil
	}
	var b bool
	if json.Unmarshal(v, &b) != nil {
		o.fail(name, "must be true or false")
		return nil
	}
	return &b
}

// number returns the exact decimal value of a JSON number field.
func (o *object) number(name string, required field) (*big.Rat, bool) {
	v, ok := o.raw(name, required)
	if !ok {
		return nil, false
	}
	if c := v[0]; c != '-' && (c < '0' || c > '9') {
		o.fail(name, "must be a number")
		return nil, false
	}
	r, err := botpay.ParseDecimal(string(v))
	if err != nil {
		o.fail(name, "must be a number")
		return nil, false
	}
	return r, true
}

func (o *object) integer(name string) *int {
	r, ok := o.number(name, optionalField)
	if !ok {
		return nil
	}
	if !r.IsInt() || !r.Num().IsInt64() || r.Num().Int64() > 1<<31 || r.Num().Int64() < -(1<<31) {
		o.fail(name, "must be an integer")
		return nil
	}
	n := int(r.Num().Int64())
	return &n
}

// usd reads a dollar amount, rounding to the nearest cent.
func (o *object) usd(name string, required field) (botpay.Money, bool) {
	v, ok := o.raw(name, required)
	if !ok {
		return 0, false
	}
	if _, ok := o.number(name, requiredField); !ok {
		return 0, false
	}
	m, err := botpay.ParseUSD(string(v))
	if err != nil {
		o.fail(name, err.Error())
		return 0, false
	}
	return m, true
}

func (o *object) strings(name string) *[]string {
	v, ok := o.raw(name, optionalField)
	if !ok {
		return nil
	}
	var list []string
	if v[0] != '[' || json.Unmarshal(v, &list) != nil {
		o.fail(name, "must be an array of strings")
		return nil
	}
	if slices.ContainsFunc(list, func(s string) bool { return !botpay.CleanText(s) }) {
		o.fail(name, "must be an array of strings without NUL characters")
		return nil
	}
	return &list
}

// child reads a nested object; its problems are reported as parent.field.
func (o *object) child(name string) *object {
	v, ok := o.raw(name, optionalField)
	if !ok {
		return nil
	}
	var fields map[string]json.RawMessage
	if v[0] != '{' || json.Unmarshal(v, &fields) != nil {
		o.fail(name, "must be an object")
		return nil
	}
	return &object{prefix: o.prefix + name + ".", fields: fields, problems: o.problems}
}

// pathID reads a record ID from the path. IDs are short ASCII; anything
// else (invalid UTF-8, NUL, overlong) cannot name a record and becomes the
// empty ID, which is answered 404 like any unknown ID instead of reaching
// the database.
func pathID(r *http.Request, name string) string {
	id := r.PathValue(name)
	if len(id) > 64 || !printableASCII(id) {
		return ""
	}
	return id
}
