package mcp

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
)

// toolDef is one tool: its description, built once, and how to bind its
// handler to a server for one caller.
type toolDef struct {
	tool *sdk.Tool
	bind func(s *sdk.Server, t *sdk.Tool, deps Resolver)
}

// definitions lists the tools. Their schemas are built once and shared by
// every server.
var definitions = sync.OnceValue(func() []toolDef {
	var defs []toolDef
	defs = append(defs, walletTools()...)
	defs = append(defs, spendingTools()...)
	defs = append(defs, x402Tools()...)
	defs = append(defs, earningTools()...)
	defs = append(defs, messageTools()...)
	defs = append(defs, vendorTools()...)
	return defs
})

// ToolNames lists the names of the tools, in the order tools/list shows
// them.
func ToolNames() []string {
	defs := definitions()
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.tool.Name
	}
	return names
}

// hints are a tool's annotations (MCP tool hints for clients that ask the
// user before calling a tool that changes things).
type hints struct {
	title       string
	readOnly    bool
	destructive bool // meaningful only when not read-only
	idempotent  bool
	openWorld   bool // reaches beyond botpay (a merchant, a URL, an e-mail)
}

func (h hints) annotations() *sdk.ToolAnnotations {
	destructive, openWorld := h.destructive, h.openWorld
	a := &sdk.ToolAnnotations{Title: h.title, ReadOnlyHint: h.readOnly, IdempotentHint: h.idempotent || h.readOnly,
		OpenWorldHint: &openWorld}
	if !h.readOnly {
		a.DestructiveHint = &destructive
	}
	return a
}

func newTool(name, description string, h hints, in, out *jsonschema.Schema) *sdk.Tool {
	return &sdk.Tool{Name: name, Title: h.title, Description: description, Annotations: h.annotations(),
		InputSchema: in, OutputSchema: out}
}

// idempotency is the argument that every tool creating something takes
// beside the endpoint's body; it is sent as the Idempotency-Key header,
// never in the body (relayed leaves it out).
type idempotency struct {
	IdempotencyKey string `json:"idempotency_key,omitempty" jsonschema:"any unique string; a retry with the same key and arguments returns the first answer instead of acting twice"`
}

// deref is the value of an optional argument, "" when left out.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// call is one call of the bot API through the client, with opts added to
// the call's own options.
type call func(ctx context.Context, bot *client.Client, opts ...client.CallOption) error

// endpoint is a tool that is one call of the bot API: route turns the
// validated arguments (typed, and raw as the agent sent them) into the
// call, and its answer becomes the result (result.go).
func endpoint[In any](tool *sdk.Tool, route func(in In, raw json.RawMessage) (call, error)) toolDef {
	return toolDef{tool: tool, bind: func(s *sdk.Server, t *sdk.Tool, deps Resolver) {
		sdk.AddTool(s, t, func(ctx context.Context, req *sdk.CallToolRequest, in In) (*sdk.CallToolResult, any, error) {
			c, err := route(in, req.Params.Arguments)
			if err != nil {
				return toolError(CodeInvalidArguments, err.Error(), nil), nil, nil
			}
			var ans client.Answer
			err = c(ctx, deps(req.Extra).API, client.WithAnswer(&ans))
			return fromAnswer(t.Name, ans, err)
		})
	}}
}

// answered makes a call of a client method (a method expression, or a
// function in its shape) whose typed result the tool does not read: the
// answer passes through as it came (fromAnswer).
func answered[Out any](send func(bot *client.Client, ctx context.Context, opts ...client.CallOption) (Out, error)) call {
	return func(ctx context.Context, bot *client.Client, opts ...client.CallOption) error {
		_, err := send(bot, ctx, opts...)
		return err
	}
}

// relayed is a POST whose body is the agent's arguments minus the
// tool-only ones, byte for byte (client.WithBody): amounts reach the
// endpoint exactly as the agent wrote them, and the endpoint's
// idempotency check sees what the agent sent. send is the client's method
// of the endpoint, given the request the body decodes to.
func relayed[Req, Out any](raw json.RawMessage, idempotencyKey string,
	send func(bot *client.Client, ctx context.Context, req Req, opts ...client.CallOption) (Out, error)) (call, error) {
	body, err := withoutKeys(raw, "idempotency_key")
	if err != nil {
		return nil, err
	}
	// The client's request types read some fields more strictly than the
	// endpoint (a due date as a full time); what they could not read is
	// still sent, in the body, and judged by the endpoint.
	var req Req
	_ = json.Unmarshal(body, &req)
	return func(ctx context.Context, bot *client.Client, opts ...client.CallOption) error {
		opts = append(opts, client.WithBody(body), client.WithIdempotencyKey(idempotencyKey))
		_, err := send(bot, ctx, req, opts...)
		return err
	}, nil
}

// page is the page of a list that limit and cursor name.
func page(limit int, cursor string) client.ListOptions {
	return client.ListOptions{Limit: limit, Cursor: cursor}
}
