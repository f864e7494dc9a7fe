package mcp

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
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

// endpoint is a tool that is one call of the bot API: route turns the
// validated arguments (typed, and raw as the agent sent them) into the
// request, and the answer becomes the result (result.go).
func endpoint[In any](tool *sdk.Tool, route func(in In, raw json.RawMessage) (Request, error)) toolDef {
	return toolDef{tool: tool, bind: func(s *sdk.Server, t *sdk.Tool, deps Resolver) {
		sdk.AddTool(s, t, func(ctx context.Context, req *sdk.CallToolRequest, in In) (*sdk.CallToolResult, any, error) {
			r, err := route(in, req.Params.Arguments)
			if err != nil {
				return toolError(CodeInvalidArguments, err.Error(), nil), nil, nil
			}
			ans, err := deps(req.Extra).API.Do(ctx, r)
			if err != nil {
				return unreachable(err), nil, nil
			}
			return fromAnswer(t.Name, r, ans)
		})
	}}
}

// get is a GET of path with query.
func get(path string, query map[string]string) Request {
	r := Request{Method: "GET", Path: path}
	for k, v := range query {
		if v == "" {
			continue
		}
		if r.Query == nil {
			r.Query = map[string][]string{}
		}
		r.Query.Set(k, v)
	}
	return r
}

// post forwards the agent's arguments, minus the tool-only ones, as the
// body of a POST to path.
func post(path string, raw json.RawMessage, idempotencyKey string) (Request, error) {
	body, err := withoutKeys(raw, "idempotency_key")
	if err != nil {
		return Request{}, err
	}
	return Request{Method: "POST", Path: path, Body: body, IdempotencyKey: idempotencyKey}, nil
}
