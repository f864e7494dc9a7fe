package reference

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/botpay/botpay/internal/openapi/build"
)

// credentials are the shell variables the curl examples authenticate with.
var credentials = map[string]string{
	"botKey":           `-H "Authorization: Bearer $BOTPAY_API_KEY"`,
	"ownerToken":       `-H "Authorization: Bearer $BOTPAY_OWNER_TOKEN"`,
	"tunnelToken":      `-H "Authorization: Bearer $BOTPAY_TUNNEL_TOKEN"`,
	"dashboardSession": `-b "botpay_session=$BOTPAY_SESSION"`,
}

// curl writes a command line that makes the request: the path's and the
// required query parameters' example values, the first credential the
// operation accepts, its required headers, and its body's example.
func curl(doc *build.Object, base string, item, op *build.Object, method, path string) string {
	var query url.Values = map[string][]string{}
	var lines []string
	params := append(build.ListOf(item.Get("parameters")), build.ListOf(op.Get("parameters"))...)
	for _, p := range params {
		p = build.Resolve(doc, p)
		required, _ := p.Get("required").(bool)
		value := paramExample(doc, p)
		switch p.Str("in") {
		case "path":
			path = strings.ReplaceAll(path, "{"+p.Str("name")+"}", url.PathEscape(value))
		case "query":
			if required {
				query.Set(p.Str("name"), value)
			}
		case "header":
			if required || p.Str("name") == "Idempotency-Key" {
				lines = append(lines, fmt.Sprintf("-H %s", shellQuote(p.Str("name")+": "+value)))
			}
		}
	}
	target := base + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	first := "curl"
	if method != "get" {
		first += " -X " + strings.ToUpper(method)
	}
	first += " " + shellQuote(target)
	if list := build.ListOf(op.Get("security")); len(list) > 0 {
		if c, ok := credentials[list[0].Keys()[0]]; ok {
			lines = append([]string{c}, lines...)
		}
	}
	lines = append(lines, bodyArgs(doc, op)...)
	return strings.Join(append([]string{first}, lines...), " \\\n  ")
}

// paramExample is a parameter's example value as text.
func paramExample(doc, p *build.Object) string {
	v := p.Get("example")
	if v == nil {
		schema := build.NewObject()
		if s := p.Obj("schema"); s != nil {
			schema = s
		}
		v = build.ExampleNamed(doc, schema, p.Str("name"))
	}
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func bodyArgs(doc, op *build.Object) []string {
	body := build.Resolve(doc, op.Obj("requestBody"))
	if body == nil || body.Obj("content") == nil {
		return nil
	}
	content := body.Obj("content")
	if media := content.Obj("application/json"); media != nil {
		example := "{}"
		if media.Has("example") {
			b, _ := json.Marshal(media.Get("example"))
			example = string(b)
		}
		return []string{`-H "Content-Type: application/json"`, "-d " + shellQuote(example)}
	}
	if media := content.Obj("application/x-www-form-urlencoded"); media != nil {
		form, _ := media.Get("example").(*build.Object)
		var args []string
		for _, k := range form.Keys() {
			v := form.Get(k)
			if v == nil {
				continue
			}
			args = append(args, "--data-urlencode "+shellQuote(fmt.Sprintf("%s=%v", k, v)))
		}
		return args
	}
	return nil
}

// shellQuote quotes s for a POSIX shell, keeping $VARIABLES expanded.
func shellQuote(s string) string {
	if strings.Contains(s, "$") && !strings.ContainsAny(s, "\"\\`") {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// answer writes the status line and body of the first successful answer.
func answer(responses []Response) string {
	if len(responses) == 0 {
		return ""
	}
	r := responses[0]
	for _, candidate := range responses {
		if candidate.Status < "400" {
			r = candidate
			break
		}
	}
	var code int
	fmt.Sscan(r.Status, &code)
	out := fmt.Sprintf("HTTP/1.1 %s %s", r.Status, http.StatusText(code))
	if r.MediaType != "" {
		out += "\nContent-Type: " + r.MediaType
	}
	switch {
	case r.Example != "":
		out += "\n\n" + r.Example
	case r.MediaType == "text/html":
		out += "\n\n<!doctype html>… (" + strings.TrimSuffix(r.Description, ".") + ")"
	}
	return out
}
