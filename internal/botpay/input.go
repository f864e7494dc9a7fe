package botpay

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// CleanText reports whether s is valid UTF-8 without NUL characters: what
// every text column accepts on both engines (PostgreSQL refuses the rest
// with SQLSTATE 22021, SQLite stores it).
func CleanText(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// TextProblem is the validation problem of a field that is not CleanText.
const TextProblem = "must be valid UTF-8 text without NUL characters"

// InvalidInput checks a request at the edge, before any handler: every
// path value of pattern ("GET /pay/{id}") and every query parameter, name
// and values. A path value that is not clean text cannot name a record:
// 404 not_found. A query parameter is 400 validation_error naming it (the
// cursor of a list: 400 invalid_cursor, as any cursor not issued here).
func InvalidInput(pattern string, pathValue func(name string) string, query url.Values) *Error {
	for _, name := range PatternWildcards(pattern) {
		if !CleanText(pathValue(name)) {
			return ErrNotFound(strings.ReplaceAll(name, "_", " "))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(query)) {
		if !CleanText(name) {
			return ValidationError(map[string]string{"query parameter " + strconv.QuoteToASCII(name): TextProblem})
		}
		for _, v := range query[name] {
			if !CleanText(v) && name == "cursor" { // a list's cursor has its own code
				return &Error{Kind: KindInvalid, Code: CodeInvalidCursor, Message: "cursor is not one this list handed out: " +
					"pass the next_cursor of the previous page of the same list, or leave cursor out to start again"}
			}
			if !CleanText(v) {
				return ValidationError(map[string]string{name: TextProblem})
			}
		}
	}
	return nil
}

// PatternWildcards are the wildcard names of a ServeMux pattern:
// "POST /a/{id}/b/{rest...}" → [id rest].
func PatternWildcards(pattern string) []string {
	var names []string
	for rest := pattern; ; {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			return names
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return names
		}
		name := strings.TrimSuffix(rest[open+1:open+end], "...")
		if name != "$" && name != "" {
			names = append(names, name)
		}
		rest = rest[open+end+1:]
	}
}
