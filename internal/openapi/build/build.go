// Package build turns the hand-written OpenAPI source (openapi.yaml) into
// the served document (openapi.json) and the project's API reference
// (docs/api.md). It adds what every operation shares, so the source does not
// repeat it: the 500 answer, the 400 answer of a bad query parameter, the
// 400/413 answers of JSON bodies, and the
// Idempotency-Key header with its 409 answer on the POSTs that take it.
package build

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Methods are the operation keys of a path item, in document order.
var Methods = []string{"get", "put", "post", "patch", "delete"}

// Document parses the YAML source and expands it into the OpenAPI document.
func Document(src []byte) (*Object, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(src, &n); err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	v, err := fromYAML(&n)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	doc, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf("openapi.yaml: not a mapping")
	}
	templates := doc.Obj("x-templates")
	doc.Delete("x-templates")
	paths := doc.Obj("paths")
	seen := map[string]string{}
	for _, path := range paths.Keys() {
		item := paths.Obj(path)
		for _, method := range Methods {
			op := item.Obj(method)
			if op == nil {
				continue
			}
			op, err := expandOperation(templates, op, method, path)
			if err != nil {
				return nil, err
			}
			// Clients name their functions after operation ids, so two
			// operations may not share one.
			id := op.Str("operationId")
			if other, dup := seen[id]; dup {
				return nil, fmt.Errorf("%s %s: operationId %q is already %s's", method, path, id, other)
			}
			seen[id] = method + " " + path
			addShared(op, method, path)
			item.Set(method, op)
		}
	}
	optionalMayBeNull(doc)
	if err := expandWebhooks(doc, templates); err != nil {
		return nil, err
	}
	addExamples(doc)
	return doc, nil
}

// JSON renders the document as indented JSON.
func JSON(doc *Object) ([]byte, error) {
	flat, err := marshal(doc)
	if err != nil {
		return nil, err
	}
	return indent(flat)
}

func expandOperation(templates, op *Object, method, path string) (*Object, error) {
	name := op.Str("x-template")
	if name != "" {
		tpl := templates.Obj(name)
		if tpl == nil {
			return nil, fmt.Errorf("%s %s: unknown template %q", method, path, name)
		}
		out := clone(tpl).(*Object)
		for _, k := range op.Keys() {
			if k != "x-template" {
				out.Set(k, op.Get(k))
			}
		}
		op = out
	}
	if !op.Has("operationId") {
		op.Set("operationId", method+camel(path))
	}
	return op, nil
}

// camel names a path for an operation id: /dashboard/bots/{bot_id} → DashboardBotsBotId.
func camel(path string) string {
	var b strings.Builder
	upper := true
	for _, r := range path {
		switch {
		case r == '/' || r == '_' || r == '-' || r == '{' || r == '}' || r == '.':
			upper = true
		case upper:
			b.WriteString(strings.ToUpper(string(r)))
			upper = false
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "Root"
	}
	return b.String()
}

func ref(target string) *Object {
	o := NewObject()
	o.Set("$ref", target)
	return o
}

// addShared adds the answers every operation of its kind can give.
func addShared(op *Object, method, path string) {
	responses := op.Obj("responses")
	setDefault := func(status, target string) {
		if !responses.Has(status) {
			responses.Set(status, ref(target))
		}
	}
	setDefault("500", "#/components/responses/InternalError")
	setDefault("503", "#/components/responses/ServiceUnavailable")
	if jsonBody(op) {
		setDefault("400", "#/components/responses/BadRequest")
		setDefault("413", "#/components/responses/InvalidJSONOrTooLarge")
	}
	// Every query parameter is checked at the edge: 400 when it is not
	// valid UTF-8 without NUL, in JSON on the API, as a page elsewhere.
	if strings.HasPrefix(path, "/api/") || answersJSON(responses) {
		setDefault("400", "#/components/responses/BadRequest")
	} else {
		setDefault("400", "#/components/responses/HTML")
	}
	idempotent, _ := op.Get("x-idempotent").(bool)
	op.Delete("x-idempotent")
	if method == "post" && strings.HasPrefix(path, "/api/v1/") && (idempotent || authenticated(op)) {
		params, _ := op.Get("parameters").([]any)
		params = append(params, ref("#/components/parameters/IdempotencyKey"))
		op.Set("parameters", params)
		setDefault("409", "#/components/responses/IdempotencyConflict")
	}
	sortResponses(responses)
}

// answersJSON: the operation's success is a JSON document.
func answersJSON(responses *Object) bool {
	ok := responses.Obj("200")
	return ok != nil && ok.Obj("content") != nil && ok.Obj("content").Has("application/json")
}

func jsonBody(op *Object) bool {
	body := op.Obj("requestBody")
	return body != nil && body.Obj("content") != nil && body.Obj("content").Has("application/json")
}

// authenticated: the operation takes a bot key or an owner token (the
// tunnel's calls are not idempotent).
func authenticated(op *Object) bool {
	list, _ := op.Get("security").([]any)
	for _, req := range list {
		if r, ok := req.(*Object); ok && (r.Has("botKey") || r.Has("ownerToken")) {
			return true
		}
	}
	return false
}

func sortResponses(responses *Object) {
	keys := responses.Keys()
	slices.Sort(keys)
	sorted := NewObject()
	for _, k := range keys {
		sorted.Set(k, responses.Get(k))
	}
	*responses = *sorted
}

// expandWebhooks builds each event's path item from the webhook template:
// the shared delivery headers, and a body whose data is the event's schema.
func expandWebhooks(doc, templates *Object) error {
	hooks := doc.Obj("webhooks")
	for _, event := range hooks.Keys() {
		if hooks.Obj(event).Str("x-template") != "webhook" {
			continue
		}
		dataSchema := "#/components/schemas/EventData_" + event
		if doc.Obj("components").Obj("schemas").Obj("EventData_"+event) == nil {
			return fmt.Errorf("webhook %s: no schema EventData_%s", event, event)
		}
		item := clone(templates.Obj("webhook")).(*Object)
		post := item.Obj("post")
		post.Set("operationId", "event"+camel(event))
		props := NewObject()
		eventName := NewObject()
		eventName.Set("const", event)
		props.Set("event", eventName)
		props.Set("data", ref(dataSchema))
		own := NewObject()
		own.Set("properties", props)
		schema := NewObject()
		schema.Set("allOf", []any{ref("#/components/schemas/WebhookEvent"), own})
		media := NewObject()
		media.Set("schema", schema)
		content := NewObject()
		content.Set("application/json", media)
		body := NewObject()
		body.Set("required", true)
		body.Set("content", content)
		post.Set("requestBody", body)
		hooks.Set(event, item)
	}
	return nil
}
