// Package web serves the server-rendered pages for people: the owner's claim
// page at the owner_verification_url, where an owner signs up or logs in and
// claims a bot in one form, and the buyer pages at /pay/{id} (checkout
// pages, invoices with their PDF, payment links). Pages are html/template with
// embedded templates, work without JavaScript and are protected against
// cross-site form posts.
//
// It calls the same app use cases as the JSON API and holds no business
// rules of its own.
package web
