package reference

import (
	"regexp"
	"slices"
	"strings"

	"github.com/botpay/botpay/internal/openapi/build"
)

// methods are the operation keys of a path item, in the order shown.
var methods = []string{"get", "put", "post", "patch", "delete"}

// FromJSON builds the reference from the served document; its curl
// examples call baseURL.
func FromJSON(document []byte, baseURL string) (*Reference, error) {
	doc, err := build.Parse(document)
	if err != nil {
		return nil, err
	}
	return New(doc, baseURL), nil
}

// New builds the reference from the expanded document.
func New(doc *build.Object, baseURL string) *Reference {
	info := doc.Obj("info")
	ref := &Reference{
		Title: info.Str("title"), Summary: info.Str("summary"),
		Description: strings.TrimSpace(info.Str("description")), BaseURL: baseURL,
		ErrorCodes: errorCodes(doc),
	}
	ref.Security = schemes(doc)
	byTag := map[string]int{}
	for _, t := range build.ListOf(doc.Get("tags")) {
		byTag[t.Str("name")] = len(ref.Tags)
		ref.Tags = append(ref.Tags, Tag{Name: t.Str("name"), Description: t.Str("description"), ID: "tag-" + t.Str("name")})
	}
	paths := doc.Obj("paths")
	for _, path := range paths.Keys() {
		item := paths.Obj(path)
		for _, method := range methods {
			op := item.Obj(method)
			if op == nil {
				continue
			}
			tags, _ := op.Get("tags").([]any)
			if len(tags) == 0 {
				continue
			}
			i, ok := byTag[tags[0].(string)]
			if !ok {
				continue
			}
			ref.Tags[i].Operations = append(ref.Tags[i].Operations, operation(doc, ref, item, op, method, path))
		}
	}
	ref.Webhooks = webhooks(doc)
	ref.Schemas = schemas(doc)
	return ref
}

// errorCodes are the codes the document declares for the error body's
// "error" field (x-error-codes of the Error schema).
func errorCodes(doc *build.Object) []string {
	var out []string
	list, _ := doc.Obj("components").Obj("schemas").Obj("Error").Get("x-error-codes").([]any)
	for _, c := range list {
		if s, ok := c.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func schemes(doc *build.Object) []Scheme {
	var out []Scheme
	all := doc.Obj("components").Obj("securitySchemes")
	for _, name := range all.Keys() {
		s := all.Obj(name)
		how := "Authorization: Bearer …"
		if s.Str("type") == "apiKey" {
			how = s.Str("in") + " " + s.Str("name")
		}
		out = append(out, Scheme{Name: name, How: how, Description: strings.TrimSpace(s.Str("description"))})
	}
	return out
}

func operation(doc *build.Object, ref *Reference, item, op *build.Object, method, path string) Operation {
	o := Operation{
		ID: op.Str("operationId"), Method: strings.ToUpper(method), Path: path,
		Summary: op.Str("summary"), Description: strings.TrimSpace(op.Str("description")),
	}
	for _, req := range build.ListOf(op.Get("security")) {
		o.Auth = append(o.Auth, strings.Join(req.Keys(), " + "))
	}
	params := append(build.ListOf(item.Get("parameters")), build.ListOf(op.Get("parameters"))...)
	for _, p := range params {
		o.Parameters = append(o.Parameters, parameter(doc, p))
	}
	if body := op.Obj("requestBody"); body != nil {
		o.Body = requestBody(doc, build.Resolve(doc, body))
	}
	responses := op.Obj("responses")
	for _, status := range responses.Keys() {
		r := response(doc, status, responses.Obj(status))
		o.Responses = append(o.Responses, r)
		if status >= "400" {
			for _, code := range codesIn(r.Description, ref.ErrorCodes) {
				if !slices.Contains(o.ErrorCodes, code) {
					o.ErrorCodes = append(o.ErrorCodes, code)
				}
			}
		}
	}
	sameFields(o.Responses)
	o.Request = curl(doc, ref.BaseURL, item, op, method, path)
	o.Answer = answer(o.Responses)
	return o
}

func parameter(doc, p *build.Object) Field {
	p = build.Resolve(doc, p)
	required, _ := p.Get("required").(bool)
	return Field{
		Name: p.Str("name"), In: p.Str("in"), Type: typeOf(doc, p.Obj("schema")), Required: required,
		Constraints: constraintsOf(doc, p.Obj("schema")), Description: strings.TrimSpace(p.Str("description")),
	}
}

func requestBody(doc, body *build.Object) *Body {
	content := body.Obj("content")
	if content == nil || len(content.Keys()) == 0 {
		return nil
	}
	mt := content.Keys()[0]
	media := content.Obj(mt)
	required, _ := body.Get("required").(bool)
	return &Body{
		MediaType: mt, Type: typeOf(doc, media.Obj("schema")), Required: required,
		Fields: fieldsOf(doc, media.Obj("schema"), "", 0, true), Example: exampleText(media.Get("example")),
	}
}

func response(doc *build.Object, status string, r *build.Object) Response {
	resolved := build.Resolve(doc, r)
	desc := strings.TrimSpace(r.Str("description"))
	if own := strings.TrimSpace(resolved.Str("description")); desc == "" {
		desc = own
	} else if own != "" && own != desc && r.Has("$ref") && !strings.Contains(desc, "`") {
		desc += " " + own
	}
	out := Response{Status: status, Description: desc}
	headers := resolved.Obj("headers")
	for _, name := range headers.Keys() {
		h := build.Resolve(doc, headers.Obj(name))
		out.Headers = append(out.Headers, Field{Name: name, In: "header", Type: typeOf(doc, h.Obj("schema")),
			Constraints: constraintsOf(doc, h.Obj("schema")), Description: strings.TrimSpace(h.Str("description"))})
	}
	content := resolved.Obj("content")
	if content == nil || len(content.Keys()) == 0 {
		return out
	}
	out.MediaType = content.Keys()[0]
	media := content.Obj(out.MediaType)
	out.Type = typeOf(doc, media.Obj("schema"))
	if out.MediaType == "application/json" {
		out.Fields = fieldsOf(doc, media.Obj("schema"), "", 0, true)
	}
	out.Example = exampleText(media.Get("example"))
	return out
}

var backticked = regexp.MustCompile("`([^`]+)`")

// codesIn lists the error codes a description names in backticks.
func codesIn(description string, known []string) []string {
	var out []string
	for _, m := range backticked.FindAllStringSubmatch(description, -1) {
		if slices.Contains(known, m[1]) && !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

// sameFields marks each successful answer whose body is the same component
// schema as an earlier one's, without headers of its own.
func sameFields(responses []Response) {
	first := map[Type]string{}
	for i, r := range responses {
		if r.Status >= "400" || r.Type.Link == "" || len(r.Fields) == 0 || len(r.Headers) > 0 {
			continue
		}
		if status, ok := first[r.Type]; ok {
			responses[i].SameFieldsAs = status
			continue
		}
		first[r.Type] = r.Status
	}
}
