package reference_test

import (
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/openapi/build"
	"github.com/botpay/botpay/internal/openapi/reference"
)

const source = `
openapi: 3.1.0
info: {title: t, version: "1", summary: s, description: d}
tags: [{name: bot, description: Bots.}]
paths:
  /api/v1/things/{thing_id}:
    parameters: [{name: thing_id, in: path, required: true, schema: {type: string}}]
    post:
      tags: [bot]
      operationId: makeThing
      summary: Make a thing
      security: [{botKey: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name: {type: string, minLength: 2, description: "The thing's name."}
                size: {enum: [small, large]}
                parts:
                  type: array
                  items: {type: object, required: [n], properties: {n: {type: integer, minimum: 1}}}
      responses:
        "200":
          description: Made.
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Thing"}
        "201":
          description: Made anew.
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Thing"}
        "404": {$ref: "#/components/responses/Error", description: "` + "`thing_gone`; `details` says which" + `."}
components:
  securitySchemes:
    botKey: {type: http, scheme: bearer}
  responses:
    Error:
      description: An error.
      content:
        application/json:
          schema: {$ref: "#/components/schemas/Error"}
  schemas:
    Thing:
      type: object
      required: [id]
      properties:
        id: {type: string}
        owner: {$ref: "#/components/schemas/Owner"}
    Owner: {type: object, properties: {email: {type: string, format: email}}}
    Error:
      type: object
      x-error-codes: [thing_gone, internal_error]
      properties: {error: {type: string}}
webhooks: {}
`

// The reference reads each field's type, constraints and requiredness, links
// components, names the error codes, and writes a curl request calling the
// base URL and the answer it gets.
func TestReferenceDescribesFieldsCodesAndExamples(t *testing.T) {
	t.Parallel()
	doc, err := build.Document([]byte(source))
	if err != nil {
		t.Fatal(err)
	}
	ref := reference.New(doc, "https://pay.example.com")
	op := ref.Tags[0].Operations[0]
	fields := map[string]reference.Field{}
	for _, f := range op.Body.Fields {
		fields[f.Name] = f
	}
	tests := []struct{ name, got, want string }{
		{"a required field with its bound", fields["name"].Constraints, "at least 2 characters"},
		{"an optional field may be null", fields["size"].Type.Text, "string or null"},
		{"an enum's members", fields["size"].Constraints, "one of `\"small\"`, `\"large\"`"},
		{"items of an inline array are flattened", fields["parts[].n"].Constraints, "≥ 1"},
		{"the body's component is linked", op.Responses[0].Type.Link, "schema-Thing"},
		{"a nested component is linked, not opened", op.Responses[0].Fields[1].Type.Link, "schema-Owner"},
		{"an answer of the same schema points at the first", op.Responses[1].SameFieldsAs, "200"},
		{"error codes are the known ones in backticks", strings.Join(op.ErrorCodes, ","), "thing_gone"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if !fields["name"].Required || fields["size"].Required {
		t.Error("required is not read from the schema")
	}
	for _, want := range []string{
		"curl -X POST 'https://pay.example.com/api/v1/things/thing_01JDQ8Z6X0A1B2C3'",
		`-H "Authorization: Bearer $BOTPAY_API_KEY"`,
		`-d '{"name":"name","size":"small","parts":[{"n":1}]}'`,
	} {
		if !strings.Contains(op.Request, want) {
			t.Errorf("the curl example lacks %s:\n%s", want, op.Request)
		}
	}
	if !strings.HasPrefix(op.Answer, "HTTP/1.1 200 OK\nContent-Type: application/json\n\n{\n  \"id\": ") {
		t.Errorf("the answer example is %q", op.Answer)
	}
	md := string(reference.Markdown(ref))
	for _, want := range []string{`<a id="makeThing"></a>`, `<a id="schema-Owner"></a>`, "| `thing_gone` | [`makeThing`](#makeThing) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %s", want)
		}
	}
}
