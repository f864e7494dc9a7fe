// Package browsertest drives the owner dashboard in a real browser: it
// builds and starts `botpay serve` on a free loopback port and runs the
// playwright-core scripts of browser/ against it with Debian's chromium.
// It holds tests only and must not be imported.
package browsertest
