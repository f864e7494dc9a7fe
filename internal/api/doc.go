// Package api is the HTTP face of botpay: the bot and owner APIs described by
// the OpenAPI document of internal/openapi (served at GET /openapi.json,
// rendered as docs/api.md) on a net/http ServeMux, with
// authentication, idempotency keys, request decoding and the one mapping of
// botpay.Error kinds to HTTP statuses.
//
// Handlers decode, call one app use case and encode; they hold no business
// rules and never touch SQL.
package api
