package client

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/botpay/botpay/wire"
)

// CodeVendorNotFound is the 404 of SkillFile for an unknown slug.
const CodeVendorNotFound = "vendor_not_found"

// Vendor is a vendor skill entry, the items of SkillsList (docs/api.md
// lists the values of Category, CheckoutMethods, Capabilities and
// Maturity). AgentFriendliness scores 0-100 how easily a bot completes a
// purchase; FreeShippingAbove (dollars) is nil when the store has no single
// threshold; SkillURL serves the Markdown skill file (see SkillFile);
// SuccessRate is 0-1, or nil until measured.
type Vendor = wire.Vendor

// SkillsQuery filters Skills; zero fields do not filter (docs/api.md).
type SkillsQuery struct {
	// Search matches name or slug, case-insensitively.
	Search   string
	Category string
	// Checkout matches vendors offering any of the methods.
	Checkout []string
	// Capabilities matches vendors offering all of them.
	Capabilities []string
	// Maturity matches vendors at any of the levels.
	Maturity []string
}

func (q SkillsQuery) values() url.Values {
	v := url.Values{}
	set := func(name, value string) {
		if value != "" {
			v.Set(name, value)
		}
	}
	set("search", q.Search)
	set("category", q.Category)
	set("checkout", strings.Join(q.Checkout, ","))
	set("capability", strings.Join(q.Capabilities, ","))
	set("maturity", strings.Join(q.Maturity, ","))
	return v
}

// SkillsList is the answer of Skills. Categories are every category the
// filter accepts; HasMore says another page follows and NextCursor names it
// (see SkillsPage and AllSkills).
type SkillsList = wire.SearchVendorsResponse

// Skills searches the vendor catalogue. An unknown filter value fails with
// 400 validation_error whose Details name the parameter.
func (c *Client) Skills(ctx context.Context, q SkillsQuery, opts ...CallOption) (*SkillsList, error) {
	var out SkillsList
	err := c.t.do(ctx, call{method: http.MethodGet, path: "/api/v1/bot/skills", query: q.values(),
		token: c.apiKey, out: &out}, opts)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// SkillFile is a vendor's Markdown skill file (docs/api.md).
type SkillFile struct {
	Markdown string
	// Version and Maturity come from X-Skill-Version and X-Skill-Maturity.
	Version  string
	Maturity string
	// ETag revalidates a cached copy with SkillFileIfChanged.
	ETag string
}

// SkillFile fetches the skill file of the vendor with the given slug. An
// unknown slug fails with 404 vendor_not_found.
func (c *Client) SkillFile(ctx context.Context, vendor string, opts ...CallOption) (*SkillFile, error) {
	file, _, err := c.skillFile(ctx, vendor, "", opts)
	return file, err
}

// SkillFileIfChanged revalidates a cached skill file: with the ETag of the
// cached copy it answers (nil, false, nil) when the file is unchanged, and
// the new file with true otherwise. The service allows caching for an hour.
func (c *Client) SkillFileIfChanged(ctx context.Context, vendor, etag string, opts ...CallOption) (*SkillFile, bool, error) {
	return c.skillFile(ctx, vendor, etag, opts)
}

func (c *Client) skillFile(ctx context.Context, vendor, etag string, opts []CallOption) (*SkillFile, bool, error) {
	settings := settingsOf(opts)
	path := "/api/v1/bot/skills/" + url.PathEscape(vendor)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.t.baseURL+path, nil)
	if err != nil {
		return nil, false, fmt.Errorf("botpay: GET %s: %w", path, err)
	}
	req.Header.Set("Accept", "text/markdown, application/json")
	if c.t.userAgent != "" {
		req.Header.Set("User-Agent", c.t.userAgent)
	}
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	if settings.requestID != "" {
		req.Header.Set("X-Request-Id", settings.requestID)
	}
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := c.t.http.Do(req)
	if err != nil {
		return nil, false, fmt.Errorf("botpay: GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return nil, false, fmt.Errorf("botpay: GET %s: reading answer: %w", path, err)
	}
	if settings.answer != nil {
		*settings.answer = Answer{Method: http.MethodGet, Path: path, StatusCode: resp.StatusCode, Header: resp.Header, Body: data}
	}
	switch {
	case resp.StatusCode == http.StatusNotModified && etag != "":
		return nil, false, nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return nil, false, decodeError(resp, data)
	}
	return &SkillFile{Markdown: string(data), Version: resp.Header.Get("X-Skill-Version"),
		Maturity: resp.Header.Get("X-Skill-Maturity"), ETag: resp.Header.Get("ETag")}, true, nil
}
