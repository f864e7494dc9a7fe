package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
)

// skillScheme prefixes the URI of a vendor skill file resource.
const skillScheme = "botpay://skills/"

// addSkillResources serves the vendor skill files as resources: the
// template botpay://skills/{slug} reads one, and resources/list lists the
// catalogue as the service has it (through the API, so a catalogue
// configured with BOTPAY_SKILLS_DIR shows too).
func addSkillResources(s *sdk.Server, deps Resolver) {
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: skillScheme + "{slug}", Name: "vendor-skill",
		Title: "Vendor skill file", MIMEType: "text/markdown",
		Description: "How an agent buys from a vendor: catalogue search, checkout methods, shipping and returns. Slugs come from search_vendors."},
		func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return readSkill(ctx, deps(req.Extra).API, req.Params.URI)
		})
	s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method != "resources/list" {
				return next(ctx, method, req)
			}
			return listSkills(ctx, deps(req.GetExtra()).API)
		}
	})
}

func readSkill(ctx context.Context, bot *client.Client, uri string) (*sdk.ReadResourceResult, error) {
	slug, ok := strings.CutPrefix(uri, skillScheme)
	if !ok || slug == "" || strings.Contains(slug, "/") {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	file, err := bot.SkillFile(ctx, slug)
	var refused *client.Error
	switch {
	case errors.As(err, &refused) && refused.StatusCode == http.StatusNotFound:
		return nil, sdk.ResourceNotFoundError(uri)
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", uri, err)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: file.Markdown,
		Meta: untrustedMeta("the vendor " + slug + " (its skill file)")}}}, nil
}

func listSkills(ctx context.Context, bot *client.Client) (*sdk.ListResourcesResult, error) {
	out := &sdk.ListResourcesResult{Resources: []*sdk.Resource{}}
	cursor := ""
	for range maxDecisionPages {
		list, err := bot.SkillsPage(ctx, client.SkillsQuery{}, page(0, cursor))
		if err != nil {
			return nil, fmt.Errorf("listing vendor skills: %w", err)
		}
		for _, v := range list.Items {
			out.Resources = append(out.Resources, &sdk.Resource{URI: skillScheme + v.Slug, Name: v.Slug, Title: v.Name + " skill file",
				MIMEType: "text/markdown", Description: fmt.Sprintf("%s vendor (%s, agent friendliness %d/100, checkout: %s)",
					v.Category, v.Maturity, v.AgentFriendliness, strings.Join(v.CheckoutMethods, ", "))})
		}
		if list.NextCursor == "" {
			break
		}
		cursor = list.NextCursor
	}
	return out, nil
}
