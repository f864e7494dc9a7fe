package mcp

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type searchVendorsInput struct {
	Search     string `json:"search,omitempty" jsonschema:"part of a vendor's name or slug, case-insensitive"`
	Category   string `json:"category,omitempty"`
	Checkout   string `json:"checkout,omitempty" jsonschema:"comma-separated checkout methods, any of which must match: native_api, acp, x402, partner_world, self_hosted_card, browser_automation"`
	Capability string `json:"capability,omitempty" jsonschema:"comma-separated capabilities, all of which must match: price_lookup, stock_check, programmatic_checkout, business_invoicing, bulk_pricing, tax_exemption, account_creation, order_tracking, returns, po_numbers"`
	Maturity   string `json:"maturity,omitempty" jsonschema:"comma-separated maturities, any of which must match: verified, beta, community, draft"`
	Limit      int    `json:"limit,omitempty" jsonschema:"vendors per page (1-100, default 100)"`
	Cursor     string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page"`
}

type vendorSkillInput struct {
	Vendor string `json:"vendor" jsonschema:"the vendor's slug from search_vendors"`
}

// skillPath is where the bot API serves a vendor's skill file.
func skillPath(slug string) string { return "/api/v1/bot/skills/" + url.PathEscape(slug) }

func vendorTools() []toolDef {
	skillTool := newTool("get_vendor_skill",
		"Reads a vendor's skill file (Markdown): how to search its catalogue, which checkout methods work for agents, shipping and "+
			"returns, and integration notes. Read it before buying from that vendor. The same files are resources at botpay://skills/{slug}.",
		hints{title: "Read a vendor skill file", readOnly: true}, inputSchema[vendorSkillInput](), outputSchema[skillFileOut]())
	return []toolDef{
		endpoint(newTool("search_vendors",
			"Searches the catalogue of vendors that agents can buy from, with how agent-friendly each one is, its checkout methods "+
				"(x402, native API, ...) and capabilities. Without filters it lists every vendor. Then read a vendor's skill file with get_vendor_skill.",
			hints{title: "Search vendors", readOnly: true},
			inputSchema[searchVendorsInput](enum("category", "retail", "office", "hardware", "electronics", "industrial", "specialty")),
			outputSchema[vendorsOut]()),
			func(in searchVendorsInput, _ json.RawMessage) (Request, error) {
				return get("/api/v1/bot/skills", map[string]string{"search": in.Search, "category": in.Category,
					"checkout": in.Checkout, "capability": in.Capability, "maturity": in.Maturity, "limit": optInt(in.Limit),
					"cursor": in.Cursor}), nil
			}),
		{tool: skillTool, bind: func(s *sdk.Server, t *sdk.Tool, deps Resolver) {
			sdk.AddTool(s, t, func(ctx context.Context, req *sdk.CallToolRequest, in vendorSkillInput) (*sdk.CallToolResult, any, error) {
				return vendorSkill(ctx, deps(req.Extra).API, in.Vendor)
			})
		}},
	}
}

// vendorSkill answers the skill file: its Markdown as text, and as
// structured output with the version and maturity headers.
func vendorSkill(ctx context.Context, api *API, vendor string) (*sdk.CallToolResult, any, error) {
	r := Request{Method: "GET", Path: skillPath(vendor)}
	ans, err := api.Do(ctx, r)
	if err != nil {
		return unreachable(err), nil, nil
	}
	if !ans.OK() {
		return refusal(r, ans), nil, nil
	}
	out := skillFileOut{Vendor: strings.ToLower(vendor), Version: ans.Header.Get("X-Skill-Version"),
		Maturity: ans.Header.Get("X-Skill-Maturity"), ContentType: ans.Header.Get("Content-Type"), Markdown: string(ans.Body),
		UntrustedFields: []string{"markdown"}}
	text := untrustedText("the vendor "+out.Vendor+" (its skill file)", out.Markdown)
	return &sdk.CallToolResult{Content: []sdk.Content{text}}, out, nil
}
