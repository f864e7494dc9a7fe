package reference

import (
	"strings"

	"github.com/botpay/botpay/internal/openapi/build"
)

// eventDataPrefix names the component schema of each webhook event's data.
const eventDataPrefix = "EventData_"

func webhooks(doc *build.Object) Webhooks {
	var out Webhooks
	hooks := doc.Obj("webhooks")
	schemas := doc.Obj("components").Obj("schemas")
	out.Envelope = fieldsOf(doc, schemas.Obj("WebhookEvent"), "", 0, true)
	for i, event := range hooks.Keys() {
		post := hooks.Obj(event).Obj("post")
		if post == nil {
			continue
		}
		if i == 0 {
			out.Description = strings.TrimSpace(post.Str("description"))
			for _, p := range build.ListOf(post.Get("parameters")) {
				out.Headers = append(out.Headers, parameter(doc, p))
			}
		}
		e := Event{Name: event, ID: "event-" + event}
		if data := schemas.Obj(eventDataPrefix + event); data != nil {
			e.Description = strings.TrimSpace(data.Str("description"))
			e.Fields = fieldsOf(doc, data, "data", 0, true)
		}
		if body := post.Obj("requestBody"); body != nil {
			e.Example = exampleText(body.Obj("content").Obj("application/json").Get("example"))
		}
		out.Events = append(out.Events, e)
	}
	return out
}

// schemas is the index of every component schema, in document order.
func schemas(doc *build.Object) []Schema {
	var out []Schema
	all := doc.Obj("components").Obj("schemas")
	for _, name := range all.Keys() {
		s := all.Obj(name)
		entry := Schema{
			Name: name, ID: SchemaID(name), Type: typeOf(doc, s),
			Constraints: constraintsOf(doc, s), Description: strings.TrimSpace(s.Str("description")),
			Fields: fieldsOf(doc, s, "", 0, true),
		}
		if len(entry.Fields) > 0 {
			entry.Example = exampleText(build.Example(doc, s))
		}
		out = append(out, entry)
	}
	return out
}
