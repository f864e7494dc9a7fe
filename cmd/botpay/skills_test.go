package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/store/storetest"
)

const overrideMarkdown = "# Acme\n\n## Overview\nTools.\n\n## Checkout methods\nCard.\n\n## Search patterns\nSearch box.\n\n" +
	"## Shipping and returns\nTwo days.\n\n## Integration notes\nAsk botpay first.\n"

const overrideData = `{"slug": "acme", "name": "Acme Tools", "category": "hardware", "url": "https://acme.example",
 "checkout_methods": ["browser_automation"], "capabilities": ["price_lookup"], "maturity": "community",
 "agent_friendliness": 40, "guest_checkout": true, "bulk_pricing": false, "free_shipping_above": null,
 "catalog_url": "https://acme.example/all", "version": "VERSION", "last_verified": "2026-11-20", "success_rate": null}`

func writeOverride(t *testing.T, version, markdown string) string {
	t.Helper()
	dir := t.TempDir()
	data := strings.Replace(overrideData, "VERSION", version, 1)
	if err := os.WriteFile(filepath.Join(dir, "acme.json"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "acme.md"), []byte(markdown), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestServeRefusesToStartWithABrokenSkillsOverride(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, version, markdown, file, want string
	}{
		{"version not semver", "1.2", overrideMarkdown, "acme.json", `field "version": must be a semantic version`},
		{"skill file lacks a section", "1.0.0", strings.Replace(overrideMarkdown, "## Search patterns", "## Finding things", 1),
			"acme.md", `section "Search patterns": is missing`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := writeOverride(t, tt.version, tt.markdown)
			logs := &storetest.LogBuffer{}
			err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir(),
				"--skills-dir", dir}, io.Discard, logs)
			if err == nil {
				t.Fatal("serve started with a broken skills folder")
			}
			wantText := "BOTPAY_SKILLS_DIR: " + filepath.Join(dir, tt.file) + ": " + tt.want
			if !strings.Contains(err.Error(), wantText) {
				t.Fatalf("error %q does not contain %q", err, wantText)
			}
			if strings.Contains(logs.String(), "botpay serving") {
				t.Fatal("server listened before refusing")
			}
		})
	}
}

// TestServeReadsTheSkillsFolderFromTheEnvironment goes through
// BOTPAY_SKILLS_DIR itself, as operators set it (so it cannot run in
// parallel).
func TestServeReadsTheSkillsFolderFromTheEnvironment(t *testing.T) {
	dir := writeOverride(t, "1.0.0", overrideMarkdown)
	if err := os.WriteFile(filepath.Join(dir, "acme.json"), []byte(strings.Replace(overrideData, `"agent_friendliness": 40`,
		`"agent_friendliness": 400`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BOTPAY_SKILLS_DIR", dir)
	err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data-dir", t.TempDir()}, io.Discard, io.Discard)
	want := filepath.Join(dir, "acme.json") + `: field "agent_friendliness": must be an integer from 0 to 100, got 400`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %v, want it to contain %q", err, want)
	}
}

func TestServeServesVendorsOfTheSkillsFolder(t *testing.T) {
	t.Parallel()
	dir := writeOverride(t, "2.1.0", overrideMarkdown)
	ctx, cancel := context.WithCancel(context.Background())
	logs := &storetest.LogBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--base-url", "https://pay.example", "--data-dir", t.TempDir(),
			"--skills-dir", dir}, io.Discard, logs)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	base := "http://" + waitForAddr(t, logs, done)
	if !strings.Contains(logs.String(), `"msg":"skills folder loaded"`) || !strings.Contains(logs.String(), `"added":["acme"]`) {
		t.Errorf("no skills folder log line:\n%s", logs.String())
	}

	resp, err := http.Post(base+"/api/v1/bots/register", "application/json",
		strings.NewReader(`{"bot_name":"shopper","owner_email":"owner@example.com"}`))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		APIKey string `json:"api_key"`
	}
	json.NewDecoder(resp.Body).Decode(&reg)
	resp.Body.Close()
	if reg.APIKey == "" {
		t.Fatalf("registration: HTTP %d", resp.StatusCode)
	}
	get := func(path string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		req.Header.Set("Authorization", "Bearer "+reg.APIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	resp, body := get("/api/v1/bot/skills?search=acme")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"skill_url":"https://pay.example/api/v1/bot/skills/acme"`) ||
		!strings.Contains(body, `"total":1`) {
		t.Errorf("list: HTTP %d %s", resp.StatusCode, body)
	}
	resp, body = get("/api/v1/bot/skills/acme")
	if resp.StatusCode != http.StatusOK || body != overrideMarkdown || resp.Header.Get("X-Skill-Version") != "2.1.0" ||
		resp.Header.Get("X-Skill-Maturity") != "community" {
		t.Errorf("skill file: HTTP %d %v %q", resp.StatusCode, resp.Header, body)
	}
}
