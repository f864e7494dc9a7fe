// Package client is the public Go SDK of botpay for bots and their owners.
//
// It owns the wire contract seen from the caller's side: typed requests and
// answers for every bot endpoint (registration, status, wallet, top-up
// requests, spending rules, webhook profile, merchant checkout and its
// status, tasks, rail5 cards with DecryptCardFile) and for the owner API
// (OwnerClient), exact money handling (USD keeps integer cents, never
// float64), the error shape (*Error, IsCode), and Idempotency-Key headers for
// safe retries (WithIdempotencyKey). The API is described in the project's
// docs/api.md and in the OpenAPI 3.1 document every service serves at
// GET /openapi.json; the examples of this package show the main flows.
//
// Its requests and answers are the types of package wire, generated from
// that OpenAPI document and named here with aliases (Checkout is
// wire.Purchase): a member the document calls optional, or that may be
// null, is a pointer (wire.Ptr makes one), and times are wire.Timestamp.
//
// It does not retry on its own: whether a retry is safe depends on the call,
// so callers retry POSTs with the same idempotency key and the service
// replays the first answer.
//
//	anon := client.New("https://pay.example.com", "")
//	reg, err := anon.Register(ctx, client.RegisterRequest{BotName: "shopper", OwnerEmail: "me@example.com"})
//	bot := anon.WithAPIKey(reg.APIKey)
//	wallet, err := bot.WalletCheck(ctx)
package client
