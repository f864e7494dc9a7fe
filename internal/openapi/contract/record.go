package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/pb33f/libopenapi-validator/paths"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
)

// Recorder appends one line per exchange to a file. Test binaries of
// several packages may append to the same file at once: the file is opened
// O_APPEND and every line is one write, so lines never interleave.
type Recorder struct {
	f *os.File
}

// OpenRecorder opens (or creates) the record file at path for appending.
func OpenRecorder(path string) (*Recorder, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("contract record: %w", err)
	}
	return &Recorder{f: f}, nil
}

// Record appends line and a newline in one write.
func (r *Recorder) Record(line string) error {
	if _, err := r.f.Write([]byte(line + "\n")); err != nil {
		return fmt.Errorf("contract record: %w", err)
	}
	return nil
}

// undocumented stands for the path of an exchange no documented path
// matched (the JSON 404 or 405 of an unknown route).
const undocumented = "(undocumented)"

// Line describes one exchange as the contract sees it, without any value
// that differs from run to run (ids, times, amounts): tab-separated, the
// method, the documented path template it matched, the status, the
// response's content type, the shapes of the request and response bodies
// (Shape) and the names of the documented response headers present.
func (c *Checker) Line(r *http.Request, reqBody []byte, status int, header http.Header, respBody []byte) string {
	req := r.Clone(r.Context())
	if req.Method == http.MethodHead { // served by the GET route
		req.Method = http.MethodGet
	}
	item, _, template := paths.FindPath(req, c.model, c.options)
	headers := "-"
	if item == nil {
		template = undocumented
	} else if op := operation(item, req.Method); op != nil {
		headers = documentedHeaders(op, status, header)
	}
	contentType := header.Get("Content-Type")
	if contentType == "" {
		contentType = "-"
	}
	return strings.Join([]string{r.Method, template, strconv.Itoa(status), contentType,
		"req:" + Shape(r.Header.Get("Content-Type"), reqBody),
		"resp:" + Shape(header.Get("Content-Type"), respBody), "headers:" + headers}, "\t")
}

// documentedHeaders names the response headers op documents for status
// (or its default answer) that header holds, sorted; "-" for none.
func documentedHeaders(op *v3.Operation, status int, header http.Header) string {
	if op.Responses == nil {
		return "-"
	}
	resp := op.Responses.Codes.GetOrZero(strconv.Itoa(status))
	if resp == nil {
		resp = op.Responses.Default
	}
	if resp == nil {
		return "-"
	}
	var names []string
	for name := range resp.Headers.KeysFromOldest() {
		if _, ok := header[http.CanonicalHeaderKey(name)]; ok {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "-"
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

// Shape is the shape of a body: "-" when empty; for JSON the sorted set of
// its key paths with each value's JSON type ("error:string
// items[].id:string"), no values; for a form the sorted field names; for
// anything else "bytes".
func Shape(contentType string, body []byte) string {
	if len(bytes.TrimSpace(body)) == 0 {
		return "-"
	}
	if media, _, _ := mime.ParseMediaType(contentType); media == "application/x-www-form-urlencoded" {
		return formShape(body)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return "bytes"
	}
	set := map[string]bool{}
	if _, ok := v.(map[string]any); !ok {
		set["$:"+jsonType(v)] = true
	}
	walk(set, "", v)
	if len(set) == 0 {
		return "{}"
	}
	return joinSorted(set)
}

// walk adds the path and type of every value under v to set; an array's
// elements share the path of the array with "[]" appended.
func walk(set map[string]bool, prefix string, v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			set[p+":"+jsonType(e)] = true
			walk(set, p, e)
		}
	case []any:
		for _, e := range v {
			set[prefix+"[]:"+jsonType(e)] = true
			walk(set, prefix+"[]", e)
		}
	}
}

func jsonType(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

func formShape(body []byte) string {
	values, err := url.ParseQuery(string(body))
	if err != nil {
		return "bytes"
	}
	set := map[string]bool{}
	for k := range values {
		set[k+":form"] = true
	}
	return joinSorted(set)
}

func joinSorted(set map[string]bool) string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
