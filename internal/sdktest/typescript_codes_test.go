package sdktest

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"testing"
)

// apiErrorCodes are the values of every Code… string constant of
// internal/botpay, sorted, without repeats.
func apiErrorCodes(t *testing.T, _ string) []string {
	t.Helper()
	var codes []string
	for _, code := range serviceErrorCodes(t) {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	return slices.Compact(codes)
}

// typescriptErrorCodes are the values of the SDK's ErrorCode object.
func typescriptErrorCodes(t *testing.T, repo string) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repo, "sdk", "typescript", "src", "errors.ts"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)export const ErrorCode = \{(.*?)\} as const;`).FindSubmatch(src)
	if block == nil {
		t.Fatal("sdk/typescript/src/errors.ts has no `export const ErrorCode = {…} as const;`")
	}
	var codes []string
	for _, m := range regexp.MustCompile(`(?m)^\s*\w+: "([^"]*)",`).FindAllSubmatch(block[1], -1) {
		codes = append(codes, string(m[1]))
	}
	slices.Sort(codes)
	return codes
}

// The SDK's ErrorCode constants are exactly the codes the service answers:
// none missing, none invented, none misspelt. It needs no node.
func TestTypeScriptErrorCodesAreTheAPIs(t *testing.T) {
	t.Parallel()
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	api, sdk := apiErrorCodes(t, repo), typescriptErrorCodes(t, repo)
	if len(api) < 20 {
		t.Fatalf("found only %d codes in internal/botpay: %q", len(api), api)
	}
	for _, code := range api {
		if !slices.Contains(sdk, code) {
			t.Errorf("the API answers %q, which sdk/typescript's ErrorCode lacks", code)
		}
	}
	for _, code := range sdk {
		if !slices.Contains(api, code) {
			t.Errorf("sdk/typescript's ErrorCode has %q, which is no code of the API", code)
		}
	}
}
