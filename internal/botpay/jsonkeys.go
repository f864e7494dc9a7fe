package botpay

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// DuplicateJSONKey finds the first object member named twice in the JSON
// text data, at any depth, and returns its path as the decoders name fields ("items[0].name").
// encoding/json keeps the last of two equal keys, so a body such as
// {"amount_usd":1,"amount_usd":500000} would mean one thing to a proxy or
// log reader that keeps the first and another to the service; such bodies
// are refused instead. Malformed JSON reports no duplicate past the point
// where it breaks: the caller's decoder refuses it.
//
// It runs on every request body, so it walks the bytes itself rather than
// through json.Decoder's tokens, which cost about a hundred allocations for
// a small body; names compare as encoding/json decodes them.
func DuplicateJSONKey(data []byte) (path string, found bool) {
	var steps [8]pathStep
	s := keyScanner{data: data, path: steps[:0]}
	s.value(0)
	return s.dupPath, s.found
}

// maxKeyDepth bounds nesting as encoding/json does, so hostile input
// cannot grow the stack without end.
const maxKeyDepth = 10000

// keyScanner walks one JSON value; it stops at the first duplicate or at
// the first byte that is not JSON.
type keyScanner struct {
	data    []byte
	i       int
	path    []pathStep // the members and elements above the value being read
	found   bool
	dupPath string
}

// pathStep is a member (name) or, when index >= 0, an array element.
type pathStep struct {
	name  memberName
	index int
}

// memberName is a member's string literal, quotes included; plain says it
// holds neither escapes nor bytes outside ASCII, so it reads as it is.
type memberName struct {
	literal []byte
	plain   bool
}

func (n memberName) String() string {
	if n.plain {
		return string(n.literal[1 : len(n.literal)-1])
	}
	var s string
	if json.Unmarshal(n.literal, &s) != nil {
		return string(n.literal)
	}
	return s
}

func (n memberName) equal(o memberName) bool {
	if n.plain && o.plain {
		return bytes.Equal(n.literal, o.literal)
	}
	return n.String() == o.String()
}

// value reads one value; false means stop (malformed, or a duplicate
// found).
func (s *keyScanner) value(depth int) bool {
	s.space()
	if s.i >= len(s.data) {
		return false
	}
	switch s.data[s.i] {
	case '{':
		return depth < maxKeyDepth && s.object(depth+1)
	case '[':
		return depth < maxKeyDepth && s.array(depth+1)
	case '"':
		_, ok := s.str()
		return ok
	}
	start := s.i
	for s.i < len(s.data) && !endsScalar(s.data[s.i]) {
		s.i++
	}
	return s.i > start
}

// endsScalar reports whether c ends a number, true, false or null.
func endsScalar(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

func (s *keyScanner) space() {
	for s.i < len(s.data) && (s.data[s.i] == ' ' || s.data[s.i] == '\t' || s.data[s.i] == '\n' || s.data[s.i] == '\r') {
		s.i++
	}
}

// next skips space and reports whether the next byte is c, consuming it.
func (s *keyScanner) next(c byte) bool {
	s.space()
	if s.i < len(s.data) && s.data[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads the string literal at s.i.
func (s *keyScanner) str() (memberName, bool) {
	start := s.i
	plain := true
	for s.i++; s.i < len(s.data); s.i++ {
		switch c := s.data[s.i]; {
		case c == '"':
			s.i++
			return memberName{literal: s.data[start:s.i], plain: plain}, true
		case c == '\\':
			plain = false
			s.i++
		case c >= 0x80:
			plain = false
		}
	}
	return memberName{}, false
}

func (s *keyScanner) array(depth int) bool {
	s.i++
	if s.next(']') {
		return true
	}
	for index := 0; ; index++ {
		s.path = append(s.path, pathStep{index: index})
		if !s.value(depth) {
			return false
		}
		s.path = s.path[:len(s.path)-1]
		if s.next(']') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

func (s *keyScanner) object(depth int) bool {
	s.i++
	if s.next('}') {
		return true
	}
	var buf [fewMembers]memberName
	names := memberNames{few: buf[:0]}
	for {
		s.space()
		if s.i >= len(s.data) || s.data[s.i] != '"' {
			return false
		}
		name, ok := s.str()
		if !ok {
			return false
		}
		if names.seen(name) {
			s.found, s.dupPath = true, s.pathTo(name)
			return false
		}
		if !s.next(':') {
			return false
		}
		s.path = append(s.path, pathStep{name: name, index: -1})
		if !s.value(depth) {
			return false
		}
		s.path = s.path[:len(s.path)-1]
		if s.next('}') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// pathTo names the member name of the object being read as the decoders
// name fields.
func (s *keyScanner) pathTo(name memberName) string {
	var path string
	for _, step := range append(s.path, pathStep{name: name, index: -1}) {
		switch {
		case step.index >= 0:
			path += "[" + strconv.Itoa(step.index) + "]"
		case path == "":
			path = step.name.String()
		default:
			path += "." + step.name.String()
		}
	}
	return path
}

// memberNames are the names of one object read so far: compared one by
// one while few, in a map once many, so that an object of many members
// costs linear time.
type memberNames struct {
	few  []memberName
	many map[string]struct{}
}

const fewMembers = 16

// seen reports whether name was read before, and notes it.
func (m *memberNames) seen(name memberName) bool {
	if m.many != nil {
		key := name.String()
		if _, ok := m.many[key]; ok {
			return true
		}
		m.many[key] = struct{}{}
		return false
	}
	for _, n := range m.few {
		if n.equal(name) {
			return true
		}
	}
	m.few = append(m.few, name)
	if len(m.few) == fewMembers {
		m.many = make(map[string]struct{}, 4*fewMembers)
		for _, n := range m.few {
			m.many[n.String()] = struct{}{}
		}
	}
	return false
}
