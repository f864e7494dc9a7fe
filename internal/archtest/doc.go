// Package archtest holds the tests that keep the architecture of
// docs/architecture.md true: which package may import which, and that no
// function is over 80 lines. It has no code of its own.
package archtest
