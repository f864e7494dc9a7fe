// Package idempotency keeps the idempotency keys of the API's POST
// requests: a key is claimed by its first request (leased, so a crashed
// request frees it), answers the first response again to a retry with the
// same body for a day, refuses another body, and is held when the first
// request's outcome is unknown so that it neither replays nor runs again.
// The HTTP middleware that seals and replays the responses is the api's
// (idempotency.go); the records live in the database so that every replica
// sees them.
package idempotency
