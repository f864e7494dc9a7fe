package mcp

import (
	"context"
	"encoding/json"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
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

func vendorTools() []toolDef {
	skillTool := newTool("get_vendor_skill",
		"Reads a vendor's skill file (Markdown): how to search its catalogue, which checkout methods work for agents, shipping and "+
			"returns, and integration notes. Read it before buying from that vendor. The same files are resources at botpay://skills/{slug}.",
		hints{title: "Read a vendor skill file", readOnly: true}, inputSchema[vendorSkillInput](), outputSchema[skillFileOut]())
	// The filters pass on as the agent wrote them: comma-separated lists
	// the client joins again with commas.
	query := func(in searchVendorsInput) client.SkillsQuery {
		return client.SkillsQuery{Search: in.Search, Category: in.Category, Checkout: commaList(in.Checkout),
			Capabilities: commaList(in.Capability), Maturity: commaList(in.Maturity)}
	}
	return []toolDef{
		endpoint(newTool("search_vendors",
			"Searches the catalogue of vendors that agents can buy from, with how agent-friendly each one is, its checkout methods "+
				"(x402, native API, ...) and capabilities. Without filters it lists every vendor. Then read a vendor's skill file with get_vendor_skill.",
			hints{title: "Search vendors", readOnly: true},
			inputSchema[searchVendorsInput](enum("category", "retail", "office", "hardware", "electronics", "industrial", "specialty")),
			vendorsOutput),
			func(in searchVendorsInput, _ json.RawMessage) (call, error) {
				return answered(func(bot *client.Client, ctx context.Context, opts ...client.CallOption) (*client.Page[client.Vendor], error) {
					return bot.SkillsPage(ctx, query(in), page(in.Limit, in.Cursor), opts...)
				}), nil
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
func vendorSkill(ctx context.Context, bot *client.Client, vendor string) (*sdk.CallToolResult, any, error) {
	var ans client.Answer
	file, err := bot.SkillFile(ctx, vendor, client.WithAnswer(&ans))
	switch {
	case ans.StatusCode == 0:
		return unreachable(err), nil, nil
	case err != nil:
		return refusal(ans, err), nil, nil
	}
	out := skillFileOut{Vendor: strings.ToLower(vendor), Version: file.Version, Maturity: file.Maturity,
		ContentType: ans.Header.Get("Content-Type"), Markdown: file.Markdown, UntrustedFields: []string{"markdown"}}
	text := untrustedText("the vendor "+out.Vendor+" (its skill file)", out.Markdown)
	return &sdk.CallToolResult{Content: []sdk.Content{text}}, out, nil
}

// commaList is a comma-separated list; nil for "".
func commaList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
