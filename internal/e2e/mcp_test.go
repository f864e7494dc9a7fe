package e2e

import (
	"testing"

	"github.com/botpay/botpay/internal/app"
	"github.com/botpay/botpay/internal/testserver"
)

// mcpService lifts the per-IP limits of registration and claims: every
// agent of TestMCP comes from the one test IP.
// Its checkout limit is not the default, so the checkout tool's
// description shows it comes from the running configuration.
var mcpService = testserver.Options{Limits: app.Limits{RegisterPerHour: 10000, ClaimPerHour: 10000, LoginPerHour: 10000,
	CheckoutPerHour: 40}}

// TestMCP checks the MCP server as agents meet it, on both engines with one
// service each (a service per behaviour made the package slow): every
// behaviour over both transports — /mcp, and the stdio server of `botpay
// mcp` — each with bots of its own, in parallel.
func TestMCP(t *testing.T) {
	perTransport := []struct {
		name  string
		check func(*testing.T, *harness, string)
	}{
		{"ListsTheEighteenTools", mcpListsTheEighteenTools},
		{"ToolsAnswerWhatTheirEndpointsAnswer", mcpToolsAnswerWhatTheirEndpointsAnswer},
		{"HeldCheckoutIsApprovedByTheOwner", mcpHeldCheckoutIsApprovedByTheOwner},
		{"GuardrailRefusalsAreToolResultsWithTheCode", mcpGuardrailRefusalsAreToolResultsWithTheCode},
		{"PayX402ResourcePaysAnotherBotsCheckoutPage", mcpPayX402ResourcePaysAnotherBotsCheckoutPage},
		{"PayX402ResourceBehindABlockedDomainIsRefused", mcpPayX402ResourceBehindABlockedDomainIsRefused},
		{"HeldX402PaymentIsPaidAfterApproval", mcpHeldX402PaymentIsPaidAfterApproval},
		{"PayX402ResourcePaysForeignSellersOfBothVersions", mcpPayX402ResourcePaysForeignSellersOfBothVersions},
		{"HeldPaymentToAForeignSellerIsPaidInItsVersion", mcpHeldPaymentToAForeignSellerIsPaidInItsVersion},
	}
	perService := []struct {
		name  string
		check func(*testing.T, *harness)
	}{
		{"WithoutAValidKeyGetsNoTool", mcpWithoutAValidKeyGetsNoTool},
		{"ActsOnlyAsTheBotOfEachRequestsKey", mcpActsOnlyAsTheBotOfEachRequestsKey},
		{"WorksAcrossReplicas", mcpWorksAcrossReplicas},
	}
	forEachEngine(t, mcpService, func(t *testing.T, h *harness) {
		for _, b := range perTransport {
			for _, transport := range mcpTransports {
				t.Run(b.name+"/"+transport, func(t *testing.T) {
					t.Parallel()
					b.check(t, h.fork(t), transport)
				})
			}
		}
		for _, b := range perService {
			t.Run(b.name, func(t *testing.T) {
				t.Parallel()
				b.check(t, h.fork(t))
			})
		}
	})
}
