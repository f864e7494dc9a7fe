// Package wire holds the bodies the botpay API reads and writes: one Go
// type per object schema of its OpenAPI document and per request body and
// answer written inline there. types_gen.go is generated from
// internal/openapi/openapi.yaml by `go generate ./internal/openapi`; the
// service's handlers, the client package and the MCP server all use these
// types, so a field of the API is named in one place.
//
// Members that are optional or may be null are pointers (Ptr makes one);
// money has exact types: USD (cents) and MicroUSDC; times are Timestamp.
package wire

// Ptr returns a pointer to v, for optional members: wire.Ptr("books").
func Ptr[T any](v T) *T { return &v }
