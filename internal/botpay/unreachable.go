package botpay

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
)

// UnavailableRetrySeconds is the Retry-After of a 503: a restarting
// database is usually back within seconds.
const UnavailableRetrySeconds = 5

// Unreachable reports whether err means the database could not be reached
// or dropped the connection, rather than refused the statement: a network
// error, a connection the driver gave up on or that closed under a read,
// or a PostgreSQL SQLSTATE of class 08 (connection exception) or 57P (the
// server shutting down or starting, as on "terminating connection due to
// administrator command"). The SQLSTATE is read through the driver error's
// SQLState method, so no driver is imported here.
func Unreachable(err error) bool {
	var netErr net.Error
	var coded interface{ SQLState() string }
	switch {
	case errors.Is(err, driver.ErrBadConn), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.As(err, &netErr):
		return true
	case errors.As(err, &coded):
		state := coded.SQLState()
		return strings.HasPrefix(state, "08") || strings.HasPrefix(state, "57P")
	}
	return false
}

// Unavailable is the answer to a request that met an unreachable
// database: safe to retry after a few seconds.
func Unavailable() *Error {
	return &Error{Kind: KindUnavailable, Code: CodeServiceUnavailable, RetryAfterSeconds: UnavailableRetrySeconds,
		Message: "the service cannot reach its database right now; retry after a few seconds"}
}
