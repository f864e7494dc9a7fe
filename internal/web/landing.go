package web

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/botpay/botpay/internal/openapi"
	"github.com/botpay/botpay/internal/openapi/reference"
)

type landingPage struct {
	Title   string
	Summary string
}

// summary is the document's one-line summary, for the front page.
var summary = func() string {
	var doc struct{ Info struct{ Summary string } }
	if err := json.Unmarshal(openapi.JSON, &doc); err != nil {
		panic("openapi.json: " + err.Error()) // embedded and tested: never happens
	}
	return doc.Info.Summary
}()

func (p *Pages) landing(w http.ResponseWriter, r *http.Request) {
	p.renderPublic(w, "landing.html", landingPage{Title: "botpay", Summary: summary})
}

type referencePage struct {
	Title string
	Ref   *reference.Reference
}

var (
	referencesMu sync.Mutex
	// references holds the API reference per base URL (one in a running
	// service), read from the OpenAPI document the service serves so the
	// page never disagrees with it.
	references = map[string]*reference.Reference{}
)

// apiReference is the reference whose curl examples call baseURL.
func apiReference(baseURL string) *reference.Reference {
	referencesMu.Lock()
	defer referencesMu.Unlock()
	if ref, ok := references[baseURL]; ok {
		return ref
	}
	ref, err := reference.FromJSON(openapi.JSON, baseURL)
	if err != nil {
		panic("openapi.json: " + err.Error()) // embedded and tested: never happens
	}
	references[baseURL] = ref
	return ref
}

func (p *Pages) apiReference(w http.ResponseWriter, r *http.Request) {
	p.renderPublic(w, "apiref.html", referencePage{Title: "API reference", Ref: apiReference(p.svc.BaseURL())})
}

// renderPublic renders a page anyone may see and cache for a while.
func (p *Pages) renderPublic(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if err := p.pages.ExecuteTemplate(w, name, data); err != nil {
		p.log.Error("render page", "page", name, "err", err)
	}
}
