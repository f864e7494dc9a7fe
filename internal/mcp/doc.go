// Package mcp serves botpay's bot API to LLM agents over the Model Context
// Protocol (github.com/modelcontextprotocol/go-sdk): eighteen tools, one per
// bot operation, and the vendor skill files as resources.
//
// Every tool calls the bot's HTTP API as the bot itself, through the public
// Go client (package client): over the network for `botpay mcp` (stdio, on
// the agent's machine), and in-process for the /mcp endpoint of `botpay
// serve`, where the client's RoundTripper hands the request to the
// service's own handler with the caller's key. A tool therefore runs
// exactly the endpoint's use case, guardrails, idempotency and error codes,
// and its structured answer is the endpoint's JSON body unchanged; its
// output schema comes from the client's type of that answer. A refusal (4xx/5xx) comes back as a tool result with
// isError set and the endpoint's error body, never as a protocol error.
//
// The package knows nothing of the database or the use cases; of this
// module it imports only the client, the pure domain and x402 packages
// and the outbound guard.
package mcp
