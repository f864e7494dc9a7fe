// Package reference turns the OpenAPI document into the API reference a
// person reads: every operation with its parameters, request body, answers
// and their fields, error codes and a curl example; every component schema;
// every webhook with its payload and signature headers. docs/api.md and the
// /docs/api page are both rendered from it, so they never disagree with
// the document or with each other.
package reference

// Reference is the whole reference.
type Reference struct {
	Title, Summary, Description string
	// BaseURL is the address the curl examples call.
	BaseURL  string
	Security []Scheme
	Tags     []Tag
	Webhooks Webhooks
	Schemas  []Schema
	// ErrorCodes are every code the error body's "error" field can hold.
	ErrorCodes []string
}

// Scheme is one way to authenticate.
type Scheme struct{ Name, How, Description string }

// Tag is a section of operations.
type Tag struct {
	Name, Description, ID string
	Operations            []Operation
}

// Operation is one method on one path.
type Operation struct {
	ID, Method, Path, Summary, Description string
	// Auth names the security schemes, any of which is accepted.
	Auth       []string
	Parameters []Field
	Body       *Body
	Responses  []Response
	// ErrorCodes are the codes its error answers name.
	ErrorCodes []string
	// Request is a curl command line; Answer is the status line and body
	// of its first successful answer.
	Request, Answer string
}

// Body is a request body.
type Body struct {
	MediaType string
	Type      Type
	Required  bool
	Fields    []Field
	Example   string
}

// Response is one answer of an operation.
type Response struct {
	Status, Description, MediaType string
	Type                           Type
	Headers                        []Field
	Fields                         []Field
	Example                        string
	// SameFieldsAs names an earlier answer of the operation with the same
	// schema, whose fields are not listed again.
	SameFieldsAs string
}

// Field is a parameter, a header or a (possibly nested, dotted) member of
// a JSON object.
type Field struct {
	Name string
	// In is where a parameter goes: path, query, header or cookie.
	In          string
	Type        Type
	Required    bool
	Constraints string
	Description string
}

// Type is a field's type as text; Link, when set, is the component schema
// it names.
type Type struct{ Text, Link string }

// Schema is one component schema of the index.
type Schema struct {
	Name, ID    string
	Type        Type
	Constraints string
	Description string
	Fields      []Field
	Example     string
}

// Webhooks are the events the service posts to a bot's callback URL.
type Webhooks struct {
	Description string
	Headers     []Field
	// Envelope is the fields every delivery's body has.
	Envelope []Field
	Events   []Event
}

// Event is one webhook event.
type Event struct {
	Name, ID, Description string
	Fields                []Field
	Example               string
}

// SchemaID is the anchor of a component schema in the reference.
func SchemaID(name string) string { return "schema-" + name }
