package botpay

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

func TestDuplicateJSONKeyNamesTheMemberAsTheDecodersDo(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body, path string
		found            bool
	}{
		{"distinct members", `{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}`, "", false},
		{"a top-level member twice", `{"amount_usd":1,"amount_usd":500000}`, "amount_usd", true},
		{"a nested member", `{"a":{"b":1,"c":2,"b":3}}`, "a.b", true},
		{"a member inside an array", `{"items":[{"x":1},{"name":"a","name":"b"}]}`, "items[1].name", true},
		{"a top-level array", `[1,{"k":1,"k":2}]`, "[1].k", true},
		{"an escaped spelling of the same name", `{"a":1,"\u0061":2}`, "a", true},
		{"an escaped name nested", `{"\u00e9t\u00e9":{"x":1,"x":2}}`, "été.x", true},
		{"the empty name twice", `{"":1,"":2}`, "", true},
		{"the same name in sibling objects", `[{"a":1},{"a":2}]`, "", false},
		{"names that differ only in case", `{"Amount":1,"amount":2}`, "", false},
		{"many members then a duplicate", manyMembers(100) + `,"m7":0}`, "m7", true},
		{"malformed after a duplicate", `{"a":1,"a":2,`, "a", true},
		{"malformed before any duplicate", `{"a":1,}"a":2}`, "", false},
		{"not an object", `"just a string"`, "", false},
		{"empty", ``, "", false},
	}
	for _, c := range cases {
		path, found := DuplicateJSONKey([]byte(c.body))
		if path != c.path || found != c.found {
			t.Errorf("%s: DuplicateJSONKey(%s) = %q, %v; want %q, %v", c.name, c.body, path, found, c.path, c.found)
		}
	}
}

func manyMembers(n int) string {
	var b strings.Builder
	b.WriteString(`{"m0":0`)
	for i := 1; i < n; i++ {
		b.WriteString(`,"m` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
	}
	return b.String()
}

// FuzzDuplicateJSONKeyAgreesWithTheTokenReader: on every valid JSON text
// the byte walker finds what json.Decoder's tokens find.
func FuzzDuplicateJSONKeyAgreesWithTheTokenReader(f *testing.F) {
	for _, seed := range []string{`{"a":1,"a":2}`, `{"a":{"b":[1,{"c":1,"\u0063":2}]}}`, `[[],{},{"":null,"x":true}]`,
		`{"é":1,"\u00e9":2}`, `{"a":"\"}","a":1}`, " \n{ \"a\" : [ 1 , 2 ] , \"b\" : { } } ", manyMembers(40) + `,"m39":1}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path, found := DuplicateJSONKey(data)
		if !json.Valid(data) {
			return
		}
		wantPath, wantFound := duplicateByTokens(data)
		if path != wantPath || found != wantFound {
			t.Fatalf("DuplicateJSONKey(%q) = %q, %v; the token reader finds %q, %v", data, path, found, wantPath, wantFound)
		}
	})
}

// duplicateByTokens is the reference: json.Decoder's tokens, names as
// the decoder unescapes them.
func duplicateByTokens(data []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var walk func(prefix string) (string, bool)
	walk = func(prefix string) (string, bool) {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch tok {
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if path, found := walk(prefix + "[" + strconv.Itoa(i) + "]"); found {
					return path, true
				}
			}
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				key, _ := dec.Token()
				member := key.(string)
				if prefix != "" {
					member = prefix + "." + member
				}
				if seen[key.(string)] {
					return member, true
				}
				seen[key.(string)] = true
				if path, found := walk(member); found {
					return path, true
				}
			}
		default:
			return "", false
		}
		_, _ = dec.Token()
		return "", false
	}
	return walk("")
}

func BenchmarkDuplicateJSONKey(b *testing.B) {
	body := []byte(`{"profile_index":1,"merchant_name":"Example Store","merchant_url":"https://store.example.com",` +
		`"item_name":"One item","amount_cents":100,"category":"office"}`)
	b.ReportAllocs()
	for b.Loop() {
		DuplicateJSONKey(body)
	}
}
