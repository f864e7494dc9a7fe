package web

import (
	"mime"
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
)

// checkedMux registers every page behind the edge check of its input: path
// values, query parameters and form fields must be valid UTF-8 without NUL
// (PostgreSQL refuses other text with SQLSTATE 22021, which answered 500
// where SQLite answered 404). A path value that is not clean text cannot
// name a record (404); a parameter or field is 400 naming it. Both are
// answered as an HTML page.
type checkedMux struct {
	Mux
	fail func(w http.ResponseWriter, r *http.Request, err error)
}

func (m checkedMux) Handle(pattern string, h http.Handler) {
	m.Mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if e := botpay.InvalidInput(pattern, r.PathValue, r.URL.Query()); e != nil {
			m.fail(w, r, e)
			return
		}
		if e := invalidForm(r); e != nil {
			m.fail(w, r, e)
			return
		}
		h.ServeHTTP(w, r)
	}))
}

func (m checkedMux) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	m.Handle(pattern, http.HandlerFunc(h))
}

// invalidForm checks the fields of a form post. The form is parsed here
// once for all (a second ParseForm reports no error), so an unreadable
// one is refused here too.
func invalidForm(r *http.Request) *botpay.Error {
	if r.Method != http.MethodPost {
		return nil
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/x-www-form-urlencoded" {
		return nil
	}
	if r.ParseForm() != nil {
		return botpay.ValidationError(map[string]string{"form": "could not be read"})
	}
	return botpay.InvalidInput("", nil, r.PostForm)
}
