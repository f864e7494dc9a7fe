// Package accounts owns the owner accounts: signing up and logging in
// (through the owner API and the dashboard's forms), the owner tokens and
// dashboard sessions that authenticate them, verifying the e-mail address,
// resetting a password by e-mailed link, the back-off of failed logins and
// the pairing codes an owner hands to the next bot to register. Its SQL
// (owners, owner_tokens, owner_links, login_failures, pairing_codes) lives
// beside the use case that runs it; rate-limit windows and owner mail are
// reached through the interfaces of service.go.
package accounts
