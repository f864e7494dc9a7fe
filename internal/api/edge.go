package api

import (
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
)

// checkedInput refuses, before the handler runs, a request whose path
// values or query parameters are not valid UTF-8 or hold NUL: PostgreSQL
// refuses such text (SQLSTATE 22021) and the handler would answer 500,
// where SQLite answers 404. A path value that is not clean text cannot name
// a record (404 not_found); a query parameter is 400 validation_error
// naming it. Every API route is registered through here (router.Handle).
func checkedInput(pattern string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e := botpay.InvalidInput(pattern, r.PathValue, r.URL.Query()); e != nil {
			writeError(w, r, e)
			return
		}
		next.ServeHTTP(w, r)
	})
}
