package api

import (
	"encoding/binary"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/skills"
	"github.com/botpay/botpay/wire"
)

// skillFileCacheControl lets browsers keep a skill file an hour and shared
// caches a day: the files change only when the service restarts with a new
// catalogue.
const skillFileCacheControl = "public, max-age=3600, s-maxage=86400"

// catalogue is the configured catalogue, or the embedded one.
func (s *Server) catalogue() *skills.Catalogue {
	if s.cfg.Skills != nil {
		return s.cfg.Skills
	}
	return skills.Default()
}

func (s *Server) listSkills(w http.ResponseWriter, r *http.Request, _ botpay.Bot) {
	filter, err := skills.ParseFilter(r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	list := newList(r, "skills", "", maxPageLimit, "search", "category", "checkout", "capability", "maturity")
	page, after, err := s.skillsPage(r, list)
	if err != nil {
		writeError(w, r, err)
		return
	}
	found := s.catalogue().Search(filter)
	rest := found[vendorsAfter(found, after):]
	shown := rest[:min(len(rest), page.Limit)]
	vendors := make([]wire.Vendor, len(shown))
	for i, v := range shown {
		vendors[i] = s.viewVendor(v)
	}
	var next *string
	if len(rest) > page.Limit {
		next = wire.Ptr(s.cursors.encode(list.scope, vendorPosition(rest[page.Limit-1])))
	}
	writeJSON(w, http.StatusOK, wire.SearchVendorsResponse{Vendors: vendors, Total: len(found), // every match, not only this page's
		Categories: slices.Clone(skills.Categories), HasMore: next != nil, NextCursor: next})
}

// The catalogue is ordered by agent friendliness, best first, then slug
// (skills.newCatalogue); a cursor's position is the last vendor's pair, so
// a catalogue reloaded between two pages neither repeats nor skips a
// vendor that was in both.
func vendorPosition(v skills.Vendor) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(int64(v.AgentFriendliness))), v.Slug...)
}

type vendorKey struct {
	friendliness int
	slug         string
}

// skillsPage reads limit and cursor of the vendor list; after is nil on
// the first page.
func (s *Server) skillsPage(r *http.Request, list listRequest) (botpay.PageRequest, *vendorKey, error) {
	page, raw, err := s.pagePosition(r, list)
	if err != nil || raw == nil {
		return page, nil, err
	}
	if len(raw) < 9 || !utf8.Valid(raw[8:]) {
		return page, nil, errInvalidCursor
	}
	return page, &vendorKey{friendliness: int(int64(binary.BigEndian.Uint64(raw))), slug: string(raw[8:])}, nil
}

// vendorsAfter is the index of the first vendor after key in found.
func vendorsAfter(found []skills.Vendor, key *vendorKey) int {
	if key == nil {
		return 0
	}
	for i, v := range found {
		if v.AgentFriendliness < key.friendliness || (v.AgentFriendliness == key.friendliness && v.Slug > key.slug) {
			return i
		}
	}
	return len(found)
}

// viewVendor is a vendor skill entry; success_rate is written as the
// float64 it is kept as (encoding/json's text), free_shipping_above as
// dollars with two decimals.
func (s *Server) viewVendor(v skills.Vendor) wire.Vendor {
	out := wire.Vendor{Slug: v.Slug, Name: v.Name, Category: v.Category, URL: v.URL,
		CheckoutMethods: nonNilList(v.CheckoutMethods), Capabilities: nonNilList(v.Capabilities), Maturity: v.Maturity,
		AgentFriendliness: v.AgentFriendliness, GuestCheckout: v.GuestCheckout, BulkPricing: v.BulkPricing,
		SkillURL: s.skillURL(v.Slug), CatalogURL: v.CatalogURL, Version: v.Version, LastVerified: v.LastVerified}
	if v.FreeShippingAbove != nil {
		out.FreeShippingAbove = wire.Ptr(dollars(*v.FreeShippingAbove))
	}
	if v.SuccessRate != nil {
		out.SuccessRate = wire.Ptr(floatNumber(*v.SuccessRate))
	}
	return out
}

// floatNumber is f as encoding/json writes a float64. NaN and the
// infinities (which the catalogue's validation refuses) stay invalid
// numbers, so the answer fails to encode as it did before.
func floatNumber(f float64) json.Number {
	text, err := json.Marshal(f)
	if err != nil {
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return json.Number(text)
}

// skillURL is where GET /api/v1/bot/skills/{vendor} serves the file.
func (s *Server) skillURL(slug string) string {
	return s.svc.BaseURL() + "/api/v1/bot/skills/" + slug
}

// skillFile serves the Markdown skill file with the headers of the API
// reference (docs/api.md), an ETag, and 304 for a matching If-None-Match. Slugs are matched
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
