// Package skills owns the vendor skills catalogue of the API reference
// (docs/api.md): the vendors a bot can shop at, each with a data file (the
// fields of a vendor skill entry) and a Markdown skill file (overview, checkout methods, search
// patterns, shipping and returns, integration notes).
//
// The catalogue is embedded in the binary (catalog/<slug>.json and
// catalog/<slug>.md); a folder named by BOTPAY_SKILLS_DIR adds or replaces
// vendors at start-up. Every file is validated when it is loaded, and a bad
// file stops the load with an error naming the file and the field, so a
// broken override never reaches bots.
//
// It owns the vocabulary (categories, checkout methods, capabilities,
// maturity levels), validation, filtering and the skill files' ETags. It does
// no HTTP and touches no database; skill_url is built by the caller from the
// public base URL.
package skills
