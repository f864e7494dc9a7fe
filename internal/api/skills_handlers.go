package api

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/skills"
)

// skillFileCacheControl is INTERFACE.md 4.19 and section 8.
const skillFileCacheControl = "public, max-age=3600, s-maxage=86400"

func (s *Server) skillsRoutes() {
	s.mux.Handle("GET /api/v1/bot/skills", s.bot(s.listSkills))
	s.mux.Handle("GET /api/v1/bot/skills/{vendor}", s.bot(s.skillFile))
}

// catalogue is the configured catalogue, or the embedded one.
func (s *Server) catalogue() *skills.Catalogue {
	if s.cfg.Skills != nil {
		return s.cfg.Skills
	}
	return skills.Default()
}

// vendorView is a vendor skill entry (INTERFACE.md 2.8).
type vendorView struct {
	Slug              string        `json:"slug"`
	Name              string        `json:"name"`
	Category          string        `json:"category"`
	URL               string        `json:"url"`
	CheckoutMethods   []string      `json:"checkout_methods"`
	Capabilities      []string      `json:"capabilities"`
	Maturity          string        `json:"maturity"`
	AgentFriendliness int           `json:"agent_friendliness"`
	GuestCheckout     bool          `json:"guest_checkout"`
	BulkPricing       bool          `json:"bulk_pricing"`
	FreeShippingAbove *botpay.Money `json:"free_shipping_above"`
	SkillURL          string        `json:"skill_url"`
	CatalogURL        string        `json:"catalog_url"`
	Version           string        `json:"version"`
	LastVerified      string        `json:"last_verified"`
	SuccessRate       *float64      `json:"success_rate"`
}

type skillsListView struct {
	Vendors    []vendorView `json:"vendors"`
	Total      int          `json:"total"`
	Categories []string     `json:"categories"`
}

func (s *Server) listSkills(w http.ResponseWriter, r *http.Request, _ botpay.Bot) {
	filter, err := skills.ParseFilter(r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	found := s.catalogue().Search(filter)
	out := skillsListView{Vendors: make([]vendorView, 0, len(found)), Total: len(found),
		Categories: slices.Clone(skills.Categories)}
	for _, v := range found {
		out.Vendors = append(out.Vendors, s.viewVendor(v))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) viewVendor(v skills.Vendor) vendorView {
	nonNil := func(list []string) []string {
		if list == nil {
			return []string{}
		}
		return list
	}
	return vendorView{Slug: v.Slug, Name: v.Name, Category: v.Category, URL: v.URL,
		CheckoutMethods: nonNil(v.CheckoutMethods), Capabilities: nonNil(v.Capabilities), Maturity: v.Maturity,
		AgentFriendliness: v.AgentFriendliness, GuestCheckout: v.GuestCheckout, BulkPricing: v.BulkPricing,
		FreeShippingAbove: v.FreeShippingAbove, SkillURL: s.skillURL(v.Slug), CatalogURL: v.CatalogURL,
		Version: v.Version, LastVerified: v.LastVerified, SuccessRate: v.SuccessRate}
}

// skillURL is where GET /api/v1/bot/skills/{vendor} serves the file.
func (s *Server) skillURL(slug string) string {
	return s.svc.BaseURL() + "/api/v1/bot/skills/" + slug
}

// skillFile serves the Markdown skill file with the headers of INTERFACE.md
// 4.19, an ETag, and 304 for a matching If-None-Match. Slugs are matched
// case-insensitively, since every slug is lower case.
func (s *Server) skillFile(w http.ResponseWriter, r *http.Request, _ botpay.Bot) {
	slug := strings.ToLower(r.PathValue("vendor"))
	skill, ok := s.catalogue().Skill(slug)
	if !ok {
		writeError(w, r, skills.ErrVendorNotFound(r.PathValue("vendor")))
		return
	}
	h := w.Header()
	h.Set("Cache-Control", skillFileCacheControl)
	h.Set("ETag", skill.ETag)
	h.Set("X-Skill-Version", skill.Vendor.Version)
	h.Set("X-Skill-Maturity", skill.Vendor.Maturity)
	if etagMatches(r.Header.Values("If-None-Match"), skill.ETag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "text/markdown; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(skill.Markdown)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(skill.Markdown)
	}
}

// etagMatches applies If-None-Match (RFC 9110 13.1.2): "*" or any listed
// tag equal to etag under weak comparison, which ignores the W/ prefix.
func etagMatches(headers []string, etag string) bool {
	for _, header := range headers {
		for tag := range strings.SplitSeq(header, ",") {
			tag = strings.TrimSpace(tag)
			if tag == "*" || strings.TrimPrefix(tag, "W/") == etag {
				return true
			}
		}
	}
	return false
}
