package build

import (
	"fmt"
	"strings"
)

// Markdown renders the project's API reference from the document.
func Markdown(doc *Object) []byte {
	var b strings.Builder
	info := doc.Obj("info")
	b.WriteString("# botpay API reference\n\n")
	b.WriteString("<!-- Generated from internal/openapi/openapi.yaml by `go generate ./internal/openapi`; do not edit. -->\n\n")
	b.WriteString("The machine-readable contract is the OpenAPI 3.1 document served at `GET /openapi.json`\n")
	b.WriteString("(source: [internal/openapi/openapi.yaml](../internal/openapi/openapi.yaml)). Operation ids below\n")
	b.WriteString("are those of the document.\n\n")
	b.WriteString(strings.TrimSpace(info.Str("description")) + "\n\n")
	writeSecurity(&b, doc)
	paths := doc.Obj("paths")
	for _, tag := range doc.Get("tags").([]any) {
		t := tag.(*Object)
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", title(t.Str("name")), t.Str("description"))
		for _, path := range paths.Keys() {
			for _, method := range Methods {
				op := paths.Obj(path).Obj(method)
				if op != nil && hasTag(op, t.Str("name")) {
					writeOperation(&b, doc, paths.Obj(path), op, method, path)
				}
			}
		}
	}
	writeWebhooks(&b, doc)
	return []byte(b.String())
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func hasTag(op *Object, tag string) bool {
	tags, _ := op.Get("tags").([]any)
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

func writeSecurity(b *strings.Builder, doc *Object) {
	b.WriteString("## Authentication\n\n| scheme | how |\n|---|---|\n")
	schemes := doc.Obj("components").Obj("securitySchemes")
	for _, name := range schemes.Keys() {
		s := schemes.Obj(name)
		how := "`Authorization: Bearer …`"
		if s.Str("type") == "apiKey" {
			how = fmt.Sprintf("%s `%s`", s.Str("in"), s.Str("name"))
		}
		fmt.Fprintf(b, "| `%s` | %s: %s |\n", name, how, oneLine(s.Str("description")))
	}
	b.WriteString("\n")
}

func writeOperation(b *strings.Builder, doc, item, op *Object, method, path string) {
	fmt.Fprintf(b, "### %s %s\n\n", strings.ToUpper(method), path)
	fmt.Fprintf(b, "`%s` — %s", op.Str("operationId"), op.Str("summary"))
	if auth := securityText(op); auth != "" {
		fmt.Fprintf(b, " (auth: %s)", auth)
	}
	b.WriteString("\n\n")
	if d := strings.TrimSpace(op.Str("description")); d != "" {
		b.WriteString(d + "\n\n")
	}
	params := append(listOf(item.Get("parameters")), listOf(op.Get("parameters"))...)
	if len(params) > 0 {
		b.WriteString("| parameter | in | required | notes |\n|---|---|---|---|\n")
		for _, p := range params {
			p = resolve(doc, p)
			req := ""
			if r, _ := p.Get("required").(bool); r {
				req = "yes"
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", p.Str("name"), p.Str("in"), req, oneLine(p.Str("description")))
		}
		b.WriteString("\n")
	}
	if body := op.Obj("requestBody"); body != nil {
		body = resolve(doc, body)
		for _, mt := range body.Obj("content").Keys() {
			fmt.Fprintf(b, "Body (`%s`): %s\n\n", mt, schemaText(doc, body.Obj("content").Obj(mt).Obj("schema")))
		}
	}
	b.WriteString("| status | answer |\n|---|---|\n")
	responses := op.Obj("responses")
	for _, status := range responses.Keys() {
		r := responses.Obj(status)
		desc := r.Str("description")
		resolved := resolve(doc, r)
		if desc == "" {
			desc = resolved.Str("description")
		}
		shape := ""
		if content := resolved.Obj("content"); content != nil {
			for _, mt := range content.Keys() {
				shape += fmt.Sprintf(" `%s` %s", mt, schemaText(doc, content.Obj(mt).Obj("schema")))
			}
		}
		fmt.Fprintf(b, "| %s | %s%s |\n", status, oneLine(desc), shape)
	}
	b.WriteString("\n")
}

func securityText(op *Object) string {
	var names []string
	for _, req := range listOf(op.Get("security")) {
		names = append(names, "`"+strings.Join(req.Keys(), "+")+"`")
	}
	return strings.Join(names, " or ")
}

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

// schemaText names a schema: a component's name, or the fields of an
// inline object.
func schemaText(doc, s *Object) string {
	if s == nil {
		return ""
	}
	if r := s.Str("$ref"); r != "" {
		return "[" + r[strings.LastIndex(r, "/")+1:] + "](#schemas)"
	}
	if s.Str("type") == "array" {
		return "array of " + schemaText(doc, s.Obj("items"))
	}
	if props := s.Obj("properties"); props != nil {
		return "`{" + strings.Join(props.Keys(), ", ") + "}`"
	}
	if t, ok := s.Get("type").(string); ok {
		return t
	}
	return ""
}

func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(strings.ReplaceAll(s, "\n", " ")), "|", "\\|")
}

func writeWebhooks(b *strings.Builder, doc *Object) {
	b.WriteString("## Webhooks\n\n")
	tpl := doc.Obj("webhooks")
	first := true
	for _, event := range tpl.Keys() {
		post := tpl.Obj(event).Obj("post")
		if first {
			b.WriteString(strings.TrimSpace(post.Str("description")) + "\n\n")
			b.WriteString("Body: `{event, timestamp, bot_id, data}`. Headers:")
			for _, p := range listOf(post.Get("parameters")) {
				b.WriteString(" `" + p.Str("name") + "`")
			}
			b.WriteString(".\n\n| event | data |\n|---|---|\n")
			first = false
		}
		data := doc.Obj("components").Obj("schemas").Obj("EventData_" + event)
		fmt.Fprintf(b, "| `%s` | %s %s |\n", event, schemaText(doc, data), oneLine(data.Str("description")))
	}
	b.WriteString("\n## Schemas\n\nThe request and response schemas are under `components.schemas` of `GET /openapi.json`.\n")
}
