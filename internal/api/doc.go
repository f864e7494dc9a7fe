// Package api is the HTTP face of botpay: the bot API of INTERFACE.md and
// the owner API of DESIGN.md section 5 on a net/http ServeMux, with
// authentication, idempotency keys, request decoding and the one mapping of
// botpay.Error kinds to HTTP statuses.
//
// Handlers decode, call one app use case and encode; they hold no business
// rules and never touch SQL.
package api
