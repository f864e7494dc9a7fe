// Package interop holds tests that run botpay's x402 endpoints against
// stock third-party clients in Node.js (viem's verifyTypedData and the
// x402-fetch client, pinned in interop/package.json). They skip with a
// message when node or the npm packages are missing, and fail instead when
// X402_INTEROP_REQUIRED=1 (CI installs them). Webhook deliveries are
// verified the same way with the stock Standard Webhooks library
// (interop/webhooks, WEBHOOKS_INTEROP_REQUIRED=1). It has no non-test code.
package interop
