package e2e

import (
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Vendor skill files are resources: resources/list shows one per vendor of
// the catalogue at botpay://skills/{slug}, the template names the pattern,
// a read answers the same Markdown as GET /api/v1/bot/skills/{slug}, and
// an unknown slug is "not found".
func TestMCPVendorSkillFilesAreResources(t *testing.T) {
	h := start(t, "sqlite", manyBots)
	c := h.claimedBot("reader")
	for _, transport := range mcpTransports {
		t.Run(transport, func(t *testing.T) {
			a := h.mcpAgent(t, transport, c.reg.APIKey)
			list, err := a.session.ListResources(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			vendors := a.raw.must(200, "GET", "/api/v1/bot/skills", a.key, nil)["vendors"].([]any)
			if len(list.Resources) != len(vendors) || len(vendors) == 0 {
				t.Fatalf("%d resources for %d vendors", len(list.Resources), len(vendors))
			}
			for i, r := range list.Resources {
				slug := vendors[i].(map[string]any)["slug"].(string)
				if r.URI != "botpay://skills/"+slug || r.MIMEType != "text/markdown" {
					t.Errorf("resource %d = %+v, want botpay://skills/%s", i, r, slug)
				}
			}
			templates, err := a.session.ListResourceTemplates(t.Context(), nil)
			if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "botpay://skills/{slug}" {
				t.Fatalf("templates = %+v, %v", templates, err)
			}
			uri := list.Resources[0].URI
			read, err := a.session.ReadResource(t.Context(), &sdk.ReadResourceParams{URI: uri})
			if err != nil {
				t.Fatal(err)
			}
			file := a.raw.do("GET", "/api/v1/bot/skills/"+strings.TrimPrefix(uri, "botpay://skills/"), a.key, nil)
			if len(read.Contents) != 1 || read.Contents[0].Text != string(file.Body) || read.Contents[0].MIMEType != "text/markdown" {
				t.Errorf("read %s = %+v, want the skill file", uri, read.Contents)
			}
			if _, err := a.session.ReadResource(t.Context(), &sdk.ReadResourceParams{URI: "botpay://skills/no-such-vendor"}); err == nil ||
				!strings.Contains(strings.ToLower(err.Error()), "not found") {
				t.Errorf("unknown vendor: err = %v, want not found", err)
			}
		})
	}
}
