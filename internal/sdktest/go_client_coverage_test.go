package sdktest

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/openapi"
)

// clientMethods names the Go client method of each bot and owner operation
// of the document: "Client.X" for a bot key, "OwnerClient.X" for an owner
// token.
var clientMethods = map[string]string{
	"registerBot":             "Client.Register",
	"getBotStatus":            "Client.Status",
	"checkWallet":             "Client.WalletCheck",
	"listTransactions":        "Client.Transactions",
	"requestTopup":            "Client.TopupRequest",
	"getSpendingRules":        "Client.Spending",
	"updateBotProfile":        "Client.UpdateProfile",
	"checkout":                "Client.Checkout",
	"getCheckoutStatus":       "Client.CheckoutStatus",
	"nextTask":                "Client.NextTask",
	"listMessages":            "Client.Messages",
	"ackMessages":             "Client.Ack",
	"searchVendors":           "Client.Skills",
	"getVendorSkill":          "Client.SkillFile",
	"listCheckoutPages":       "Client.CheckoutPages",
	"createCheckoutPage":      "Client.CreateCheckoutPage",
	"listPaymentLinks":        "Client.PaymentLinks",
	"createPaymentLink":       "Client.CreatePaymentLink",
	"listInvoices":            "Client.Invoices",
	"createInvoice":           "Client.CreateInvoice",
	"sendInvoice":             "Client.SendInvoice",
	"listSales":               "Client.Sales",
	"facilitatorSupported":    "Client.FacilitatorSupported",
	"facilitatorVerify":       "Client.FacilitatorVerify",
	"facilitatorSettle":       "Client.FacilitatorSettle",
	"confirmRail5Delivery":    "Client.ConfirmRail5Delivery",
	"rail5Checkout":           "Client.Rail5Checkout",
	"rail5Key":                "Client.Rail5Key",
	"rail5Complete":           "Client.Rail5Complete",
	"signX402Payment":         "Client.Sign",
	"refundSale":              "Client.RefundSale",
	"rotateOwnAPIKey":         "Client.RotateAPIKey",
	"ownerSignup":             "OwnerClient.Signup",
	"ownerLogin":              "OwnerClient.Login",
	"ownerLogout":             "OwnerClient.Logout",
	"createPairingCode":       "OwnerClient.CreatePairingCode",
	"claimBot":                "OwnerClient.Claim",
	"listMyBots":              "OwnerClient.BotsMine",
	"fundBot":                 "OwnerClient.Fund",
	"freezeBot":               "OwnerClient.Freeze",
	"getGuardrails":           "OwnerClient.Guardrails",
	"putGuardrails":           "OwnerClient.SetGuardrails",
	"getMasterGuardrails":     "OwnerClient.MasterGuardrails",
	"putMasterGuardrails":     "OwnerClient.SetMasterGuardrails",
	"putCallbackURL":          "OwnerClient.SetCallbackURL",
	"listCards":               "OwnerClient.Cards",
	"createCard":              "OwnerClient.CreateCard",
	"patchCard":               "OwnerClient.SetCardStatus",
	"createRail5Card":         "OwnerClient.CreateRail5Card",
	"createTask":              "OwnerClient.CreateTask",
	"getProcurement":          "OwnerClient.Procurement",
	"putProcurement":          "OwnerClient.SetProcurement",
	"createProcessorWallet":   "OwnerClient.CreateProcessorWallet",
	"listApprovals":           "OwnerClient.Approvals",
	"approvePurchase":         "OwnerClient.ApprovePurchase",
	"denyPurchase":            "OwnerClient.DenyPurchase",
	"listSigningRequests":     "OwnerClient.SigningRequests",
	"approveSigningRequest":   "OwnerClient.DecideSigning",
	"denySigningRequest":      "OwnerClient.DecideSigning",
	"cancelInvoice":           "OwnerClient.CancelInvoice",
	"refundPurchase":          "OwnerClient.RefundPurchase",
	"rotateBotAPIKey":         "OwnerClient.RotateBotAPIKey",
	"requestPasswordReset":    "OwnerClient.RequestPasswordReset",
	"confirmPasswordReset":    "OwnerClient.ConfirmPasswordReset",
	"resendEmailVerification": "OwnerClient.ResendEmailVerification",
	"listOwnerSessions":       "OwnerClient.Sessions",
	"revokeOwnerSession":      "OwnerClient.RevokeSession",
}

// withoutClientMethod are the bot and owner operations the Go client leaves
// out on purpose, each with the reason.
var withoutClientMethod = map[string]string{
	"mcp":                  "the MCP endpoint speaks JSON-RPC to MCP clients, not REST",
	"sendInvoiceWithoutID": "it only ever answers 400 missing_invoice_id to a malformed path",
}

// clientTags are the tags whose operations a program calls with a bot key
// or an owner token; the others are pages, dashboard forms, buyer routes,
// the tunnel's own protocol and the service's probes.
var clientTags = []string{"bot", "owner"}

// TestGoClientHasAMethodForEveryBotAndOwnerOperation: each bot and owner
// operation of the document is one named method of the client (or is left
// out by name, with a reason), and each named method exists.
func TestGoClientHasAMethodForEveryBotAndOwnerOperation(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openapi.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for path, item := range doc.Paths {
		for method, raw := range item {
			var op struct {
				OperationID string   `json:"operationId"`
				Tags        []string `json:"tags"`
			}
			if json.Unmarshal(raw, &op) != nil || op.OperationID == "" || len(op.Tags) == 0 || !slices.Contains(clientTags, op.Tags[0]) {
				continue
			}
			documented[op.OperationID] = true
			_, named := clientMethods[op.OperationID]
			_, excepted := withoutClientMethod[op.OperationID]
			if !named && !excepted {
				t.Errorf("%s %s (%s) has no Go client method: add one and name it in clientMethods", strings.ToUpper(method), path, op.OperationID)
			}
		}
	}
	types := map[string]reflect.Type{
		"Client":      reflect.TypeFor[*client.Client](),
		"OwnerClient": reflect.TypeFor[*client.OwnerClient](),
	}
	for id, name := range clientMethods {
		if !documented[id] {
			t.Errorf("clientMethods names %s, which is not a bot or owner operation of the document", id)
		}
		typ, method, _ := strings.Cut(name, ".")
		if _, ok := types[typ].MethodByName(method); !ok {
			t.Errorf("%s: client has no method %s", id, name)
		}
	}
	for id := range withoutClientMethod {
		if !documented[id] {
			t.Errorf("withoutClientMethod names %s, which is not a bot or owner operation of the document", id)
		}
	}
}

// TestGoClientHasEveryErrorCodeOfTheService: the client's Code* constants
// are exactly the codes internal/botpay declares, so a program can branch
// on every code the service answers and on none it never does.
func TestGoClientHasEveryErrorCodeOfTheService(t *testing.T) {
	t.Parallel()
	_, file, _, _ := runtime.Caller(0)
	clientCodes := codeConstants(t, filepath.Join(filepath.Dir(file), "..", "..", "client"))
	have := map[string]string{}
	for name, code := range clientCodes {
		have[code] = name
	}
	want := map[string]string{}
	for name, code := range serviceErrorCodes(t) {
		want[code] = name
		if _, ok := have[code]; !ok {
			t.Errorf("client: no constant for %q (the service's %s)", code, name)
		}
	}
	for code, name := range have {
		if _, ok := want[code]; !ok {
			t.Errorf("client.%s = %q is not an error code of the service", name, code)
		}
	}
}

// codeConstants reads the Code* string constants of the package in dir.
func codeConstants(t *testing.T, dir string) map[string]string {
	t.Helper()
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir,
		func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]string{}
	for _, pkg := range pkgs {
		ast.Inspect(pkg, func(n ast.Node) bool {
			spec, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, name := range spec.Names {
				if !strings.HasPrefix(name.Name, "Code") || i >= len(spec.Values) {
					continue
				}
				if lit, ok := spec.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					codes[name.Name], _ = strconv.Unquote(lit.Value)
				}
			}
			return true
		})
	}
	if len(codes) < 20 {
		t.Fatalf("found only %d error codes in %s", len(codes), dir)
	}
	return codes
}

// TestDocumentListsEveryErrorCodeOfTheService: the Error schema's
// x-error-codes, which the reference indexes, are exactly the codes
// internal/botpay declares.
func TestDocumentListsEveryErrorCodeOfTheService(t *testing.T) {
	t.Parallel()
	var doc struct {
		Components struct {
			Schemas struct {
				Error struct {
					Codes []string `json:"x-error-codes"`
				} `json:"Error"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapi.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	listed := doc.Components.Schemas.Error.Codes
	declared := map[string]bool{}
	for name, code := range serviceErrorCodes(t) {
		declared[code] = true
		if !slices.Contains(listed, code) {
			t.Errorf("openapi.yaml: the Error schema's x-error-codes lacks %q (the service's %s)", code, name)
		}
	}
	for _, code := range listed {
		if !declared[code] {
			t.Errorf("openapi.yaml: x-error-codes lists %q, which the service does not declare", code)
		}
	}
}
