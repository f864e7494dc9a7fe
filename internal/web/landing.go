package web

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/botpay/botpay/internal/openapi"
)

type landingPage struct {
	Title   string
	Summary string
}

func (p *Pages) landing(w http.ResponseWriter, r *http.Request) {
	p.renderPublic(w, "landing.html", landingPage{Title: "botpay", Summary: reference.Summary})
}

// operation is one route of the API reference page.
type operation struct {
	Method, Path, Summary, ID string
}

type tagSection struct {
	Name, Description, ID string
	Operations            []operation
}

type referencePage struct {
	Title       string
	Summary     string
	Description string
	Tags        []tagSection
}

// reference is the API reference page's data, read once from the OpenAPI
// document the service serves, so the page never disagrees with it.
var reference = buildReference(openapi.JSON)

func buildReference(doc []byte) referencePage {
	var d struct {
		Info struct{ Summary, Description string }
		Tags []struct{ Name, Description string }
		// path → method → operation
		Paths map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		panic("openapi.json: " + err.Error()) // embedded and tested: never happens
	}
	page := referencePage{Title: "API reference", Summary: d.Info.Summary, Description: d.Info.Description}
	byTag := map[string]*tagSection{}
	for _, t := range d.Tags {
		page.Tags = append(page.Tags, tagSection{Name: t.Name, Description: t.Description, ID: "tag-" + t.Name})
	}
	for i := range page.Tags {
		byTag[page.Tags[i].Name] = &page.Tags[i]
	}
	for path, item := range d.Paths {
		for method, raw := range item {
			var op struct {
				Tags        []string
				Summary     string
				OperationID string `json:"operationId"`
			}
			if json.Unmarshal(raw, &op) != nil || op.OperationID == "" || len(op.Tags) == 0 || byTag[op.Tags[0]] == nil {
				continue // path-level parameters, or an operation without a known tag
			}
			s := byTag[op.Tags[0]]
			s.Operations = append(s.Operations, operation{Method: strings.ToUpper(method), Path: path, Summary: op.Summary, ID: op.OperationID})
		}
	}
	for i := range page.Tags {
		slices.SortFunc(page.Tags[i].Operations, func(a, b operation) int {
			return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Method, b.Method))
		})
	}
	return page
}

func (p *Pages) apiReference(w http.ResponseWriter, r *http.Request) {
	p.renderPublic(w, "apiref.html", reference)
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
