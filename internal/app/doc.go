// Package app holds the use cases of botpay: register a bot, sign up and
// log in an owner, claim, fund, freeze, set guardrails, request a top-up;
// and earning: checkout pages, payment links, invoices (PDF and e-mail),
// sales and the buyers' payments.
// Each use case validates its input, draws secrets, calls the store once
// (one database transaction) and then does the work that must stay outside a
// transaction, such as sending e-mail.
//
// Both the JSON API and the web pages call these functions, so an action
// behaves the same wherever it is taken. It does not know about HTTP.
package app
