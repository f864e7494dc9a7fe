package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/egress"
	"github.com/botpay/botpay/internal/x402"
)

// Deps is what the tools of one server use.
type Deps struct {
	// API is the bot API's client, calling as the bot whose key the agent
	// holds: over the network for botpay mcp, in-process (InProcessAPI)
	// for /mcp.
	API *client.Client
	// Outbound fetches the resources of pay_x402_resource.
	Outbound Outbound
	// Payment is the network and token the service signs x402 payments
	// for; pay_x402_resource pays only requirements in them.
	Payment Payment
}

// Payment names the network and token of x402 payments. The zero Payment
// means: ask the service which network it signs on (its facilitator's
// supported kinds), any token on it (the sign endpoint refuses another
// token than its own).
type Payment struct {
	Network string // x402 v1 network name, for example "base"
	ChainID uint64
	Asset   string // 0x address of the token; "" for the service's own
}

// PaymentOf is the payment target of a service signing in domain d.
func PaymentOf(d x402.Domain) Payment {
	return Payment{Network: d.Network(), ChainID: d.ChainID, Asset: d.Contract.Hex()}
}

// pays reports whether an offer of x402 version on network is on the
// chain the service signs on: a CAIP-2 id in v2, a v1 name (or CAIP-2 id)
// in v1.
func (p Payment) pays(network string, version int) bool {
	if version == x402.Version2 {
		id, ok := x402.ChainOfCAIP2(network)
		return ok && id == p.ChainID
	}
	id, ok := x402.ChainOfNetwork(network)
	return network == p.Network || (ok && id == p.ChainID)
}

// DefaultPayment is what the service signs for: USDC on Base.
func DefaultPayment() Payment {
	return Payment{Network: x402.Network, ChainID: x402.BaseUSDC.ChainID, Asset: x402.BaseUSDC.Contract.Hex()}
}

// Outbound is the HTTP client for agent-chosen URLs: the outbound guard
// (internal/egress) refuses internal destinations unless AllowPrivate.
type Outbound struct {
	Client       *http.Client
	AllowPrivate bool
}

// NewOutbound is the guarded client pay_x402_resource fetches with (10 s
// per request, no redirects, no proxies).
func NewOutbound(allowPrivate bool) Outbound {
	return Outbound{Client: egress.Client(egress.Options{AllowPrivate: allowPrivate, Timeout: 10 * time.Second}),
		AllowPrivate: allowPrivate}
}

// Check refuses, before any connection, a URL naming an internal address.
func (o Outbound) Check(url string) error {
	if o.AllowPrivate {
		return nil
	}
	return egress.CheckURL(url)
}

func (o Outbound) refused(err error) bool { return egress.IsRefused(err) }

// Options describe the server to clients.
type Options struct {
	Version string
	Logger  *slog.Logger
	// The running service's rate limits, named in the tools' descriptions;
	// 0 when this process does not know one (botpay mcp talks to a
	// service elsewhere). CheckoutsPerHour and TopupsPerHour are per bot;
	// the invoice e-mails are per bot and per owner in 24 hours.
	CheckoutsPerHour           int
	TopupsPerHour              int
	InvoiceMailsPerBotPerDay   int
	InvoiceMailsPerOwnerPerDay int
}

// Placeholders stand in the tools' descriptions for limits only the
// running configuration knows.
const (
	checkoutLimitText    = "{checkout limit}"
	topupLimitText       = "{top-up limit}"
	invoiceMailLimitText = "{invoice mail limits}"
)

// limitTexts are what each placeholder becomes: the limit when o knows
// it, else how the limit shows.
func limitTexts(o Options) map[string]string {
	texts := map[string]string{
		checkoutLimitText:    "Checkouts are limited per bot per hour; past the limit the refusal is rate_limited with the seconds to wait.",
		topupLimitText:       "rate_limited when asked too often",
		invoiceMailLimitText: "the service limits invoice e-mails per bot and per owner per day (rate_limited)",
	}
	if o.CheckoutsPerHour > 0 {
		texts[checkoutLimitText] = fmt.Sprintf("At most %d checkouts per hour.", o.CheckoutsPerHour)
	}
	if o.TopupsPerHour > 0 {
		texts[topupLimitText] = fmt.Sprintf("rate_limited past %d requests per hour", o.TopupsPerHour)
	}
	if o.InvoiceMailsPerBotPerDay > 0 && o.InvoiceMailsPerOwnerPerDay > 0 {
		texts[invoiceMailLimitText] = fmt.Sprintf("the service sends at most %d invoice e-mails per bot and %d per owner in 24 hours "+
			"(rate_limited past them)", o.InvoiceMailsPerBotPerDay, o.InvoiceMailsPerOwnerPerDay)
	}
	return texts
}

// described fills the running configuration into a tool's description;
// the shared definition is left as it is.
func described(t *sdk.Tool, o Options) *sdk.Tool {
	if !strings.Contains(t.Description, "{") {
		return t
	}
	filled := *t
	for placeholder, text := range limitTexts(o) {
		filled.Description = strings.ReplaceAll(filled.Description, placeholder, text)
	}
	return &filled
}

// span names a duration the way the descriptions do: "15 minutes",
// "24 hours", "7 days".
func span(d time.Duration) string {
	switch {
	case d >= 48*time.Hour && d%(24*time.Hour) == 0:
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	case d >= 2*time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%d hours", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
	return d.String()
}

// Resolver gives the dependencies of one request. extra carries the HTTP
// header of a request to /mcp; it is nil over stdio.
type Resolver func(extra *sdk.RequestExtra) *Deps

// Fixed serves every request with d (one agent over stdio).
func Fixed(d *Deps) Resolver { return func(*sdk.RequestExtra) *Deps { return d } }

const instructions = "botpay is this agent's wallet, kept by a human owner who sets guardrails and approves what they ask to approve. " +
	"Start with get_status. Purchases and x402 payments may be held for the owner's approval: that is an outcome, not an error; " +
	"follow the next step the answer gives. Refusals are error results whose JSON names the code; do not retry a refusal by a guardrail."

// NewServer is the MCP server: the eighteen tools and the vendor skill
// resources, each request served with the dependencies deps gives it.
func NewServer(deps Resolver, o Options) *sdk.Server {
	version := o.Version
	if version == "" {
		version = "dev"
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "botpay", Title: "botpay wallet", Version: version},
		&sdk.ServerOptions{Instructions: instructions, Logger: o.Logger, HasTools: true, HasResources: true})
	for _, def := range definitions() {
		def.bind(s, described(def.tool, o), deps)
	}
	addSkillResources(s, deps)
	s.AddReceivingMiddleware(argumentRefusals)
	return s
}

// argumentRefusals gives the SDK's own refusals of a tool's arguments
// (schema validation, decoding) the service's error shape, so every error
// result an agent sees leads with {"error": code, "message": ...}.
func argumentRefusals(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		call, ok := res.(*sdk.CallToolResult)
		if err != nil || !ok || method != "tools/call" || !call.IsError || len(call.Content) == 0 {
			return res, err
		}
		if text, ok := call.Content[0].(*sdk.TextContent); ok && !json.Valid([]byte(text.Text)) {
			return toolError(CodeInvalidArguments, text.Text, nil), nil
		}
		return res, err
	}
}

// knownNetworks are the x402 networks whose USDC the service can be
// configured to sign for.
var knownNetworks = map[string]Payment{
	"base":         DefaultPayment(),
	"base-sepolia": {Network: "base-sepolia", ChainID: 84532, Asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e"},
}

// PaymentOn is the payment target of a `botpay mcp` whose service signs on
// network (base or base-sepolia), in token (its USDC when empty).
func PaymentOn(network, token string) (Payment, error) {
	if network == "" && token == "" {
		return Payment{}, nil // asked of the service when paying
	}
	p, ok := knownNetworks[network]
	if !ok {
		return Payment{}, fmt.Errorf("unknown x402 network %q (base or base-sepolia)", network)
	}
	if token != "" {
		a, err := x402.ParseAddress(token)
		if err != nil {
			return Payment{}, fmt.Errorf("x402 token: %w", err)
		}
		p.Asset = a.Hex()
	}
	return p, nil
}
