package archtest

import (
	"strings"
	"testing"
)

// importRule forbids files of the packages under from importing what
// forbidden says, for the reason given (docs/architecture.md).
type importRule struct {
	name      string
	under     string // package path relative to the module, and its subpackages
	tests     bool   // the rule holds for _test.go files too
	forbidden func(imp string) bool
}

// inModule reports whether imp is under one of the module-relative paths.
func inModule(imp string, paths ...string) bool {
	for _, p := range paths {
		full := module + "/" + p
		if imp == full || strings.HasPrefix(imp, full+"/") {
			return true
		}
	}
	return false
}

// testOnly are the packages that exist for tests: non-test code never
// imports them.
var testOnly = []string{"internal/store/storetest", "internal/testserver", "internal/chaintest",
	"internal/livetest", "internal/interop", "internal/browsertest", "internal/e2e", "internal/suite",
	"internal/sdktest"}

// capabilities are the packages that each hold a capability's use cases
// and their SQL over the kernel and the ledger.
var capabilities = []string{"internal/accounts", "internal/bots", "internal/earning", "internal/idempotency", "internal/notifications",
	"internal/payments", "internal/spending", "internal/wallets"}

// capabilityRules refuse a capability package importing another one, the
// drawers it was cut from, or the HTTP layers: what it needs of others it
// declares as an interface, and app wires it.
func capabilityRules() []importRule {
	var rules []importRule
	for _, c := range capabilities {
		others := []string{"internal/app", "internal/store", "internal/api", "internal/web", "internal/mcp"}
		for _, o := range capabilities {
			if o != c {
				others = append(others, o)
			}
		}
		rules = append(rules, importRule{name: c + " stands on the kernel, the ledger and the domain only", under: c,
			forbidden: func(imp string) bool { return inModule(imp, others...) }})
	}
	return rules
}

var importRules = append(capabilityRules(), []importRule{
	{name: "the domain imports nothing of the module", under: "internal/botpay",
		forbidden: func(imp string) bool { return strings.HasPrefix(imp, module+"/") }},
	{name: "the database kernel imports only the domain", under: "internal/kernel",
		forbidden: func(imp string) bool {
			return strings.HasPrefix(imp, module+"/") && !inModule(imp, "internal/botpay", "internal/kernel")
		}},
	{name: "the money primitives import only the kernel and the domain", under: "internal/ledger",
		forbidden: func(imp string) bool {
			return strings.HasPrefix(imp, module+"/") && !inModule(imp, "internal/botpay", "internal/kernel", "internal/ledger")
		}},
	{name: "the store imports only the kernel, the ledger and the domain", under: "internal/store",
		forbidden: func(imp string) bool {
			return strings.HasPrefix(imp, module+"/") &&
				!inModule(imp, "internal/botpay", "internal/kernel", "internal/ledger", "internal/store", "internal/suite")
		}},
	{name: "the rate-limit windows import only the kernel and the domain", under: "internal/ratelimit",
		forbidden: func(imp string) bool {
			return strings.HasPrefix(imp, module+"/") && !inModule(imp, "internal/botpay", "internal/kernel", "internal/ratelimit")
		}},
	{name: "the job queue imports only the kernel and the domain", under: "internal/jobs",
		forbidden: func(imp string) bool {
			return strings.HasPrefix(imp, module+"/") && !inModule(imp, "internal/botpay", "internal/kernel", "internal/jobs")
		}},
	{name: "field validation imports only the domain", under: "internal/validate",
		forbidden: func(imp string) bool {
			return strings.HasPrefix(imp, module+"/") && !inModule(imp, "internal/botpay", "internal/validate")
		}},
	{name: "use cases know nothing of HTTP or the binary", under: "internal/app",
		forbidden: func(imp string) bool { return inModule(imp, "internal/api", "internal/web", "cmd") }},
	{name: "the JSON API reaches the database only through use cases", under: "internal/api",
		forbidden: func(imp string) bool { return inModule(imp, "internal/store", "internal/kernel", "internal/web") }},
	{name: "the pages reach the database only through use cases and need nothing of the API", under: "internal/web",
		forbidden: func(imp string) bool { return inModule(imp, "internal/store", "internal/kernel", "internal/api") }},
	{name: "the Ethereum primitives import nothing of the module", under: "internal/eth", tests: true,
		forbidden: func(imp string) bool { return strings.HasPrefix(imp, module+"/") }},
	{name: "the payment protocol imports only the Ethereum primitives", under: "internal/x402",
		forbidden: func(imp string) bool {
			return strings.HasPrefix(imp, module+"/") && !inModule(imp, "internal/eth", "internal/x402")
		}},
	{name: "the transaction layer stands below the payment protocol", under: "internal/evm", tests: true,
		forbidden: func(imp string) bool { return inModule(imp, "internal/x402") }},
	{name: "the public SDK stands alone", under: "client", tests: true,
		forbidden: func(imp string) bool { return inModule(imp, "internal") }},
	{name: "the wire types import nothing of the module", under: "wire", tests: true,
		forbidden: func(imp string) bool { return strings.HasPrefix(imp, module+"/") && !inModule(imp, "wire") }},
	{name: "test-only packages stay out of the service", under: "",
		forbidden: func(imp string) bool { return inModule(imp, testOnly...) }},
}...)

// violations lists "file imports path" for every file that breaks rule.
func (rule importRule) violations(files []sourceFile) []string {
	var out []string
	for _, f := range files {
		if (f.test && !rule.tests) || !rule.covers(f.pkg) {
			continue
		}
		for _, imp := range f.imports {
			if rule.forbidden(imp) {
				out = append(out, f.path+" imports "+imp)
			}
		}
	}
	return out
}

func (rule importRule) covers(pkg string) bool {
	// A test-only package under a layer (storetest under the store) builds
	// fixtures through the use cases; its own rule keeps it out of the
	// service.
	return (rule.under == "" || inModule(pkg, rule.under)) && !inModule(pkg, testOnly...)
}

func TestImportsFollowTheLayers(t *testing.T) {
	files := parseRepo(t)
	for _, rule := range importRules {
		t.Run(rule.name, func(t *testing.T) {
			for _, v := range rule.violations(files) {
				t.Error(v)
			}
		})
	}
}

func TestImportRulesCatchAForbiddenImport(t *testing.T) {
	bad := []sourceFile{
		{path: "internal/web/x.go", pkg: module + "/internal/web", imports: []string{module + "/internal/api"}},
		{path: "internal/api/x.go", pkg: module + "/internal/api", imports: []string{module + "/internal/store"}},
		{path: "internal/kernel/x.go", pkg: module + "/internal/kernel", imports: []string{module + "/internal/store"}},
		{path: "internal/ledger/x.go", pkg: module + "/internal/ledger", imports: []string{module + "/internal/store"}},
		{path: "internal/bots/x.go", pkg: module + "/internal/bots", imports: []string{module + "/internal/accounts"}},
		{path: "internal/earning/x.go", pkg: module + "/internal/earning", imports: []string{module + "/internal/store"}},
		{path: "internal/accounts/x.go", pkg: module + "/internal/accounts", imports: []string{module + "/internal/app"}},
		{path: "internal/api/y.go", pkg: module + "/internal/api", imports: []string{module + "/internal/kernel"}},
		{path: "internal/botpay/x.go", pkg: module + "/internal/botpay", imports: []string{module + "/internal/seal"}},
		{path: "internal/app/x.go", pkg: module + "/internal/app", imports: []string{module + "/internal/testserver"}},
		{path: "internal/eth/x.go", pkg: module + "/internal/eth", imports: []string{module + "/internal/x402"}},
		{path: "internal/x402/x.go", pkg: module + "/internal/x402", imports: []string{module + "/internal/evm"}},
		{path: "internal/evm/x_test.go", pkg: module + "/internal/evm", test: true, imports: []string{module + "/internal/x402"}},
		{path: "client/x_test.go", pkg: module + "/client", test: true, imports: []string{module + "/internal/botpay"}},
	}
	caught := map[string]bool{}
	for _, rule := range importRules {
		for _, v := range rule.violations(bad) {
			caught[strings.Fields(v)[0]] = true
		}
	}
	for _, f := range bad {
		if !caught[f.path] {
			t.Errorf("no rule refuses %s importing %v", f.path, f.imports)
		}
	}
}
