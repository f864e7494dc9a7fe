package reference

import (
	"fmt"
	"strings"
)

// MarkdownBaseURL is the address docs/api.md's curl examples call: a shell
// variable the reader sets to their service's BOTPAY_BASE_URL.
const MarkdownBaseURL = "$BOTPAY_URL"

// Markdown renders the reference as docs/api.md.
func Markdown(ref *Reference) []byte {
	var b strings.Builder
	b.WriteString("# botpay API reference\n\n")
	b.WriteString("<!-- Generated from internal/openapi/openapi.yaml by `go generate ./internal/openapi`; do not edit. -->\n\n")
	b.WriteString("The machine-readable contract is the OpenAPI 3.1 document served at `GET /openapi.json`\n")
	b.WriteString("(source: [internal/openapi/openapi.yaml](../internal/openapi/openapi.yaml)); a running service\n")
	b.WriteString("also serves this reference at `GET /docs/api`. Operation ids below are those of the document.\n")
	b.WriteString("The curl examples call `$BOTPAY_URL` (the service's `BOTPAY_BASE_URL`) with the credential in\n")
	b.WriteString("`$BOTPAY_API_KEY` (a bot's key), `$BOTPAY_OWNER_TOKEN` (an owner token) or `$BOTPAY_TUNNEL_TOKEN`.\n\n")
	b.WriteString(ref.Description + "\n\n")
	b.WriteString("## Contents\n\n")
	for _, t := range ref.Tags {
		fmt.Fprintf(&b, "- [%s](#%s): %s\n", title(t.Name), t.ID, t.Description)
	}
	b.WriteString("- [Webhooks](#webhooks)\n- [Schemas](#schemas)\n- [Error codes](#error-codes)\n\n")
	b.WriteString("## Authentication\n\n| scheme | how |\n|---|---|\n")
	for _, s := range ref.Security {
		fmt.Fprintf(&b, "| `%s` | `%s`: %s |\n", s.Name, s.How, cell(s.Description))
	}
	b.WriteString("\n")
	for _, t := range ref.Tags {
		fmt.Fprintf(&b, "<a id=\"%s\"></a>\n\n## %s\n\n%s\n\n", t.ID, title(t.Name), t.Description)
		for _, op := range t.Operations {
			writeOperation(&b, op)
		}
	}
	writeWebhooks(&b, ref.Webhooks)
	writeSchemas(&b, ref.Schemas)
	writeErrorCodes(&b, ref)
	return []byte(b.String())
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func writeOperation(b *strings.Builder, op Operation) {
	fmt.Fprintf(b, "<a id=\"%s\"></a>\n\n### %s %s\n\n", op.ID, op.Method, op.Path)
	fmt.Fprintf(b, "`%s` — %s", op.ID, op.Summary)
	if len(op.Auth) > 0 {
		fmt.Fprintf(b, " (auth: `%s`)", strings.Join(op.Auth, "` or `"))
	}
	b.WriteString("\n\n")
	if op.Description != "" {
		b.WriteString(op.Description + "\n\n")
	}
	if len(op.Parameters) > 0 {
		b.WriteString("**Parameters**\n\n")
		writeFields(b, op.Parameters, true)
	}
	if body := op.Body; body != nil {
		required := "optional"
		if body.Required {
			required = "required"
		}
		fmt.Fprintf(b, "**Request body** (`%s`, %s): %s\n\n", body.MediaType, required, typeText(body.Type))
		writeFields(b, body.Fields, false)
	}
	b.WriteString("**Answers**\n\n| status | meaning | body |\n|---|---|---|\n")
	for _, r := range op.Responses {
		shape := ""
		if r.MediaType != "" {
			shape = fmt.Sprintf("`%s` %s", r.MediaType, typeText(r.Type))
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", r.Status, cell(r.Description), shape)
	}
	b.WriteString("\n")
	for _, r := range op.Responses {
		switch {
		case r.SameFieldsAs != "":
			fmt.Fprintf(b, "The %s answer has the fields of the %s answer.\n\n", r.Status, r.SameFieldsAs)
		case r.Status < "400" && (len(r.Fields) > 0 || len(r.Headers) > 0):
			fmt.Fprintf(b, "Fields of the %s answer:\n\n", r.Status)
			writeFields(b, append(append([]Field(nil), r.Headers...), r.Fields...), false)
		}
	}
	if len(op.ErrorCodes) > 0 {
		fmt.Fprintf(b, "**Error codes:** `%s`\n\n", strings.Join(op.ErrorCodes, "`, `"))
	}
	fmt.Fprintf(b, "**Example**\n\n```sh\n%s\n```\n\n```http\n%s\n```\n\n", op.Request, op.Answer)
}

// writeFields writes a table of parameters (with where each goes) or of
// fields.
func writeFields(b *strings.Builder, fields []Field, withIn bool) {
	if len(fields) == 0 {
		return
	}
	if withIn {
		b.WriteString("| name | in | type | required | constraints | meaning |\n|---|---|---|---|---|---|\n")
	} else {
		b.WriteString("| field | type | required | constraints | meaning |\n|---|---|---|---|---|\n")
	}
	for _, f := range fields {
		required := ""
		if f.Required {
			required = "yes"
		}
		in := ""
		if withIn {
			in = f.In + " | "
		} else if f.In == "header" {
			in = ""
			f.Name += " (header)"
		}
		fmt.Fprintf(b, "| `%s` | %s%s | %s | %s | %s |\n", f.Name, in, typeText(f.Type), required, cell(f.Constraints), cell(f.Description))
	}
	b.WriteString("\n")
}

func typeText(t Type) string {
	if t.Link == "" {
		return cell(t.Text)
	}
	return fmt.Sprintf("[%s](#%s)", cell(t.Text), t.Link)
}

// cell keeps a text on one line of a Markdown table.
func cell(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(strings.ReplaceAll(s, "\n", " ")), "|", "\\|")
}

func writeWebhooks(b *strings.Builder, w Webhooks) {
	b.WriteString("<a id=\"webhooks\"></a>\n\n## Webhooks\n\n")
	b.WriteString(w.Description + "\n\n**Headers of every delivery**\n\n")
	writeFields(b, w.Headers, true)
	b.WriteString("**Body of every delivery**\n\n")
	writeFields(b, w.Envelope, false)
	for _, e := range w.Events {
		fmt.Fprintf(b, "<a id=\"%s\"></a>\n\n### Event `%s`\n\n", e.ID, e.Name)
		if e.Description != "" {
			b.WriteString(e.Description + "\n\n")
		}
		writeFields(b, e.Fields, false)
		if e.Example != "" {
			fmt.Fprintf(b, "```json\n%s\n```\n\n", e.Example)
		}
	}
}

func writeSchemas(b *strings.Builder, schemas []Schema) {
	b.WriteString("<a id=\"schemas\"></a>\n\n## Schemas\n\nEvery component schema of the document, by name.\n\n")
	for _, s := range schemas {
		fmt.Fprintf(b, "<a id=\"%s\"></a>\n\n### %s\n\n", s.ID, s.Name)
		fmt.Fprintf(b, "Type: %s", typeText(s.Type))
		if s.Constraints != "" {
			fmt.Fprintf(b, "; %s", cell(s.Constraints))
		}
		b.WriteString(".")
		if s.Description != "" {
			b.WriteString(" " + cell(s.Description))
		}
		b.WriteString("\n\n")
		writeFields(b, s.Fields, false)
		if s.Example != "" {
			fmt.Fprintf(b, "```json\n%s\n```\n\n", s.Example)
		}
	}
}

func writeErrorCodes(b *strings.Builder, ref *Reference) {
	b.WriteString("<a id=\"error-codes\"></a>\n\n## Error codes\n\n")
	b.WriteString("The `error` field of an error answer is one of these codes; each operation above lists those it can answer.\n\n")
	b.WriteString("| code | answered by |\n|---|---|\n")
	for _, code := range ref.ErrorCodes {
		var ids []string
		for _, t := range ref.Tags {
			for _, op := range t.Operations {
				for _, c := range op.ErrorCodes {
					if c == code {
						ids = append(ids, fmt.Sprintf("[`%s`](#%s)", op.ID, op.ID))
					}
				}
			}
		}
		fmt.Fprintf(b, "| `%s` | %s |\n", code, strings.Join(ids, ", "))
	}
	b.WriteString("\n")
}
