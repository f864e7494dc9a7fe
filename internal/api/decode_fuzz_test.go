package api

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
)

var decodeSeeds = []string{
	``, ` `, `null`, `true`, `1`, `"s"`, `[]`, `[{}]`, `{}`, `{} {}`, `{"a":1}x`, `{"a":`, `{"a":1,}`,
	`{"bot_name":"helper","owner_email":"owner@example.com","local_port":18789,"webhook_path":"/hooks"}`,
	`{"s":"x","n":1.5,"i":42,"b":true,"l":["x","y"],"c":{"d":{"e":[1]}},"z":null}`,
	`{"i":2147483648,"j":-2147483649,"k":1e3,"m":1.0,"o":-0,"p":9223372036854775808}`,
	`{"usd":0.005,"neg":-2.005,"big":1e400,"tiny":1e-400,"long":0.000000000000000000000000000000000000000000000000000000000000000001}`,
	`{"s":"\u0000","t":"\ud800","u":"é","v":""}`,
	`{"l":[1,2],"m":[null],"n":"str","c":[],"d":"obj","e":1}`,
	`{"c":{"c":{"c":{"c":{"c":{}}}}}}`,
	`{"a":1,"a":"dup"}`,
	`{"amount_usd":1,"amount_usd":500000}`,
	`{"c":{"d":1,"d":2}}`, `{"l":[{"x":1},{"x":1,"x":2}]}`, `{"a":{"a":{"a":1}}}`, `{"\u0061":1,"a":2}`,
}

// exercise calls every typed accessor on every field of o (and on a field
// that is absent), descending into children, and checks what each reports.
func exercise(t *testing.T, o *object, depth int) {
	names := append(slices.Sorted(maps.Keys(o.fields)), "absent")
	for _, name := range names {
		raw, ok := o.raw(name, optionalField)
		if ok && len(raw) == 0 {
			t.Fatalf("raw(%q) is empty but present", name)
		}
		_ = o.present(name)
		for _, required := range []field{optionalField, requiredField} {
			if s := o.str(name, required); s != "" {
				var want string
				if json.Unmarshal(raw, &want) != nil || want != s {
					t.Fatalf("str(%q) = %q from %s", name, s, raw)
				}
			}
			if m, ok := o.usd(name, required); ok && (m > botpay.MaxMoney || m < -botpay.MaxMoney) {
				t.Fatalf("usd(%q) = %d is beyond MaxMoney", name, m)
			}
			if r, ok := o.number(name, required); ok && r == nil {
				t.Fatalf("number(%q) ok without a value", name)
			}
		}
		if p := o.optStr(name); p != nil && !ok {
			t.Fatalf("optStr(%q) set for an absent field", name)
		}
		if b := o.boolean(name); b != nil && string(raw) != "true" && string(raw) != "false" {
			t.Fatalf("boolean(%q) = %v from %s", name, *b, raw)
		}
		if n := o.integer(name); n != nil && (*n > 1<<31 || *n < -(1<<31)) {
			t.Fatalf("integer(%q) = %d is out of range", name, *n)
		}
		if l := o.strings(name); l != nil && raw[0] != '[' {
			t.Fatalf("strings(%q) from %s", name, raw)
		}
		if depth < 4 {
			if c := o.child(name); c != nil {
				exercise(t, c, depth+1)
			}
		}
	}
}

// FuzzDecodeObject: decoding and every typed accessor must never panic; a
// refused body is always invalid_json, and collected problems always come
// back as one validation_error whose details are exactly the problems.
func FuzzDecodeObject(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := decodeObject(data)
		if err != nil {
			e := botpay.AsError(err)
			if o != nil || e == nil || e.Kind != botpay.KindInvalid || e.Message == "" {
				t.Fatalf("decodeObject(%q) = %v, %#v", data, o, err)
			}
			duplicated := e.Code == botpay.CodeValidation && len(e.Details) == 1 && hasDuplicateMember(t, data)
			if e.Code != botpay.CodeInvalidJSON && !duplicated {
				t.Fatalf("decodeObject(%q) = %#v", data, err)
			}
			return
		}
		if hasDuplicateMember(t, data) {
			t.Fatalf("decodeObject accepted %q, which names a member twice", data)
		}
		if json.Valid(data) == false {
			t.Fatalf("decodeObject accepted invalid JSON %q", data)
		}
		exercise(t, o, 0)
		err = o.err()
		if len(o.problems) == 0 {
			if err != nil {
				t.Fatalf("err() = %v without problems", err)
			}
			return
		}
		e := botpay.AsError(err)
		if e == nil || e.Code != botpay.CodeValidation || e.Kind != botpay.KindInvalid || !maps.Equal(e.Details, o.problems) {
			t.Fatalf("err() = %#v for problems %v", err, o.problems)
		}
		for field, problem := range e.Details {
			if problem == "" {
				t.Fatalf("empty problem for %q", field)
			}
		}
	})
}

// TestDecodeObjectFieldTypes pins the accessors' answers on one body.
func TestDecodeObjectFieldTypes(t *testing.T) {
	o, err := decodeObject([]byte(`{"s":"x","n":"5","i":7,"f":7.5,"b":true,"l":["a"],"bad":[1],
		"c":{"u":"1"},"usd":2.005,"nul":null,"blank":"  "}`))
	if err != nil {
		t.Fatal(err)
	}
	if o.required("s") != "x" || o.optional("nul") != "" || o.optStr("nul") != nil {
		t.Error("str")
	}
	if n := o.integer("i"); n == nil || *n != 7 {
		t.Error("integer i")
	}
	if m, ok := o.usd("usd", requiredField); !ok || m != 201 {
		t.Errorf("usd = %d, %v; want 201 cents", m, ok)
	}
	if b := o.boolean("b"); b == nil || !*b {
		t.Error("boolean")
	}
	if l := o.strings("l"); l == nil || len(*l) != 1 || (*l)[0] != "a" {
		t.Error("strings")
	}
	o.integer("f")
	o.usd("n", requiredField)
	o.strings("bad")
	o.required("blank")
	o.required("missing")
	o.boolean("s")
	if c := o.child("c"); c == nil {
		t.Error("child")
	} else {
		c.usd("u", requiredField)
	}
	o.child("s")
	want := map[string]string{"f": "must be an integer", "n": "must be a number", "bad": "must be an array of strings",
		"blank": "is required", "missing": "is required", "s": "must be true or false", "c.u": "must be a number"}
	for field := range want {
		if o.problems[field] == "" {
			t.Errorf("no problem reported for %q", field)
		}
	}
	if o.problems["s"] != "must be true or false" {
		t.Errorf("the first problem of a field wins; got %q", o.problems["s"])
	}
	if len(o.problems) != len(want) {
		t.Errorf("problems = %v", o.problems)
	}
}

// hasDuplicateMember is the fuzz test's own oracle for duplicate keys: the
// number of members written in the text against the number that survive
// decoding into maps (equal keys collapse there).
func hasDuplicateMember(t *testing.T, data []byte) bool {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	type frame struct{ object, wantKey bool }
	var stack []*frame
	written := 0
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch {
		case top != nil && top.object && top.wantKey && tok != json.Delim('}'):
			written++
			top.wantKey = false
		case tok == json.Delim('{') || tok == json.Delim('['):
			stack = append(stack, &frame{object: tok == json.Delim('{'), wantKey: tok == json.Delim('{')})
		case tok == json.Delim('}') || tok == json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].wantKey = stack[len(stack)-1].object
			}
		case top != nil:
			top.wantKey = top.object
		}
	}
	return written != decodedMembers(v)
}

func decodedMembers(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		for _, member := range v {
			n += 1 + decodedMembers(member)
		}
	case []any:
		for _, item := range v {
			n += decodedMembers(item)
		}
	}
	return n
}
