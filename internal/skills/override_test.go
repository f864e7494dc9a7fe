package skills

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const validMarkdown = `# Acme Tools

## Overview
Acme sells tools.

## Checkout methods
Browser checkout with a card.

## Search patterns
https://acme.example/search?q=<terms>

## Shipping and returns
Ships in two days; 30-day returns.

## Integration notes
Ask botpay before paying.
`

func validData(slug string) map[string]any {
	return map[string]any{
		"slug": slug, "name": "Acme Tools", "category": "hardware", "url": "https://acme.example",
		"checkout_methods": []string{"browser_automation", "self_hosted_card"},
		"capabilities":     []string{"price_lookup", "returns"}, "maturity": "beta", "agent_friendliness": 70,
		"guest_checkout": true, "bulk_pricing": false, "free_shipping_above": 25.5,
		"catalog_url": "https://acme.example/catalog", "version": "1.2.0-rc.1+build.5",
		"last_verified": "2026-11-01", "success_rate": 0.9,
	}
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeVendor(t *testing.T, dir, slug string, data map[string]any, md string) {
	t.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, slug+".json", string(raw))
	if md != "" {
		writeFile(t, dir, slug+".md", md)
	}
}

func TestLoadAddsAndReplacesVendors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeVendor(t, dir, "acme-tools", validData("acme-tools"), validMarkdown)
	replacement := validData("uline")
	replacement["name"], replacement["category"], replacement["version"] = "Uline", "industrial", "2.0.0"
	writeVendor(t, dir, "uline", replacement, strings.Replace(validMarkdown, "Acme sells tools.", "Our own Uline notes.", 1))
	writeFile(t, dir, ".DS_Store", "ignored")
	if err := os.Mkdir(filepath.Join(dir, "drafts"), 0o755); err != nil {
		t.Fatal(err)
	}

	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != Default().Len()+1 {
		t.Errorf("Len = %d, want embedded + 1 = %d", c.Len(), Default().Len()+1)
	}
	added, replaced := c.FromFolder()
	if strings.Join(added, ",") != "acme-tools" || strings.Join(replaced, ",") != "uline" {
		t.Errorf("added %v replaced %v", added, replaced)
	}
	acme, ok := c.Skill("acme-tools")
	if !ok || acme.Vendor.FreeShippingAbove == nil || *acme.Vendor.FreeShippingAbove != 2550 ||
		acme.Vendor.SuccessRate == nil || *acme.Vendor.SuccessRate != 0.9 || acme.Vendor.Version != "1.2.0-rc.1+build.5" {
		t.Errorf("acme-tools = %+v", acme.Vendor)
	}
	uline, _ := c.Skill("uline")
	if uline.Vendor.Version != "2.0.0" || !strings.Contains(string(uline.Markdown), "Our own Uline notes.") {
		t.Errorf("uline was not replaced: %+v", uline.Vendor)
	}
	embeddedUline, _ := Default().Skill("uline")
	if embeddedUline.Vendor.Version != "1.0.0" || uline.ETag == embeddedUline.ETag {
		t.Error("replacing a vendor changed the embedded catalogue or kept its ETag")
	}
	if got := c.Search(Filter{Category: "hardware"}); len(got) != 3 || got[0].Slug != "acme-tools" {
		t.Errorf("hardware vendors = %v, want acme-tools (70) first of 3", got)
	}
}

func TestLoadWithoutFolderIsTheEmbeddedCatalogue(t *testing.T) {
	t.Parallel()
	c, err := Load("")
	if err != nil || c != Default() {
		t.Fatalf("Load(\"\") = %p, %v; want the embedded catalogue", c, err)
	}
	empty, err := Load(t.TempDir())
	if err != nil || empty.Len() != Default().Len() {
		t.Fatalf("empty folder: %v, %d vendors", err, empty.Len())
	}
}

func TestLoadRefusesABrokenFolderNamingFileAndField(t *testing.T) {
	t.Parallel()
	set := func(field string, value any) func(map[string]any) {
		return func(m map[string]any) { m[field] = value }
	}
	tests := []struct {
		name   string
		change func(map[string]any)
		md     string // "" writes validMarkdown; "-" writes none
		file   string // file named in the error, relative to the folder
		want   string // field or section named in the error
	}{
		{"version is not semver", set("version", "1.2"), "", "acme.json", `field "version"`},
		{"version has a leading zero", set("version", "01.2.3"), "", "acme.json", `field "version"`},
		{"agent_friendliness above 100", set("agent_friendliness", 101), "", "acme.json", `field "agent_friendliness"`},
		{"agent_friendliness below 0", set("agent_friendliness", -1), "", "acme.json", `field "agent_friendliness"`},
		{"agent_friendliness not an integer", set("agent_friendliness", 7.5), "", "acme.json", `field "agent_friendliness"`},
		{"agent_friendliness as a string", set("agent_friendliness", "70"), "", "acme.json", `field "agent_friendliness"`},
		{"success_rate above 1", set("success_rate", 1.5), "", "acme.json", `field "success_rate"`},
		{"success_rate negative", set("success_rate", -0.1), "", "acme.json", `field "success_rate"`},
		{"unknown category", set("category", "groceries"), "", "acme.json", `field "category"`},
		{"unknown checkout method", set("checkout_methods", []string{"paypal"}), "", "acme.json", `field "checkout_methods"`},
		{"no checkout method", set("checkout_methods", []string{}), "", "acme.json", `field "checkout_methods"`},
		{"duplicate capability", set("capabilities", []string{"returns", "returns"}), "", "acme.json", `field "capabilities"`},
		{"unknown capability", set("capabilities", []string{"teleport"}), "", "acme.json", `field "capabilities"`},
		{"unknown maturity", set("maturity", "stable"), "", "acme.json", `field "maturity"`},
		{"slug differs from the file name", set("slug", "acme-two"), "", "acme.json", `field "slug"`},
		{"name empty", set("name", " "), "", "acme.json", `field "name"`},
		{"url not absolute", set("url", "acme.example"), "", "acme.json", `field "url"`},
		{"catalog_url not http", set("catalog_url", "ftp://acme.example"), "", "acme.json", `field "catalog_url"`},
		{"last_verified not a date", set("last_verified", "yesterday"), "", "acme.json", `field "last_verified"`},
		{"free_shipping_above negative", set("free_shipping_above", -5), "", "acme.json", `field "free_shipping_above"`},
		{"guest_checkout null", set("guest_checkout", nil), "", "acme.json", `field "guest_checkout"`},
		{"bulk_pricing disagrees with capabilities", set("bulk_pricing", true), "", "acme.json", `field "bulk_pricing"`},
		{"programmatic checkout without an API", set("capabilities", []string{"programmatic_checkout"}), "", "acme.json", `field "capabilities"`},
		{"required field missing", func(m map[string]any) { delete(m, "maturity") }, "", "acme.json", `field "maturity"`},
		{"unknown field", set("agent_friendlyness", 70), "", "acme.json", `field "agent_friendlyness"`},
		{"skill_url is derived", set("skill_url", "https://x.example"), "", "acme.json", `field "skill_url"`},
		{"skill file missing", nil, "-", "acme.md", "is missing"},
		{"skill file without a section", nil, strings.Replace(validMarkdown, "## Search patterns", "## Searching", 1),
			"acme.md", `section "Search patterns"`},
		{"skill file with an empty section", nil, strings.Replace(validMarkdown, "Ships in two days; 30-day returns.", "", 1),
			"acme.md", `section "Shipping and returns"`},
		{"skill file with a heading only in a code block", nil,
			strings.Replace(validMarkdown, "## Integration notes", "```\n## Integration notes", 1) + "```\n",
			"acme.md", `section "Integration notes"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			data := validData("acme")
			if tt.change != nil {
				tt.change(data)
			}
			md := tt.md
			switch md {
			case "":
				md = validMarkdown
			case "-":
				md = ""
			}
			writeVendor(t, dir, "acme", data, md)
			_, err := Load(dir)
			wantFileError(t, err, filepath.Join(dir, tt.file), tt.want)
		})
	}
}

func TestLoadRefusesStrayAndMalformedFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, content, want string
	}{
		{"invalid JSON names the line", "acme.json", "{\n\"slug\": \"acme\",\n}", "invalid JSON at line 3"},
		{"JSON that is not an object", "acme.json", `["acme"]`, "must be a JSON object"},
		{"skill file without data file", "acme.md", validMarkdown, "has no data file acme.json"},
		{"file of another kind", "acme.yaml", "slug: acme", "neither a <slug>.json data file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, dir, tt.file, tt.content)
			_, err := Load(dir)
			wantFileError(t, err, filepath.Join(dir, tt.file), tt.want)
		})
	}
}

func TestLoadRefusesAMissingFolder(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "nope")
	if _, err := Load(missing); err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("Load(missing) = %v", err)
	}
}

func wantFileError(t *testing.T, err error, file, want string) {
	t.Helper()
	var fe *FileError
	if !errors.As(err, &fe) {
		t.Fatalf("error = %v, want a *FileError", err)
	}
	if fe.File != file || !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %q, want file %s and %q", err, file, want)
	}
}
