// Package e2e holds the end-to-end tests: each starts the whole service on a
// real HTTP server (internal/testserver) over every database engine and
// drives it only through the public Go SDK (package client), the way a bot
// and its owner would. Besides the typed answers, every raw answer is checked
// against the wire conventions of the API reference (docs/api.md) (JSON, error shape,
// millisecond UTC timestamps).
package e2e
