package sdktest

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// serviceErrorCodes reads every Code* string constant of internal/botpay,
// the one place the service's error codes are declared.
func serviceErrorCodes(t *testing.T) map[string]string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return codeConstants(t, filepath.Join(filepath.Dir(file), "..", "botpay"))
}

var (
	lowerThenUpper   = regexp.MustCompile(`([a-z0-9])([A-Z])`)
	acronymThenWord  = regexp.MustCompile(`([A-Z]+)([A-Z][a-z])`)
	pythonAssignment = regexp.MustCompile(`(?m)^([A-Z][A-Z0-9_]*) = "([^"]*)"$`)
)

// pythonName is the Python constant of a Go one: CodeCardIDRequired is
// CARD_ID_REQUIRED.
func pythonName(goName string) string {
	name := strings.TrimPrefix(goName, "Code")
	name = acronymThenWord.ReplaceAllString(name, "${1}_${2}")
	name = lowerThenUpper.ReplaceAllString(name, "${1}_${2}")
	return strings.ToUpper(name)
}

// TestPythonSDKHasEveryErrorCodeOfTheService: botpay.errors holds a
// constant for each error code the service declares, named after it and
// equal to it, so a bot can branch on every code the API sends.
func TestPythonSDKHasEveryErrorCodeOfTheService(t *testing.T) {
	t.Parallel()
	source, err := os.ReadFile(filepath.Join(pythonSDKDir(t), "botpay", "errors.py"))
	if err != nil {
		t.Fatal(err)
	}
	python := map[string]string{}
	for _, m := range pythonAssignment.FindAllStringSubmatch(string(source), -1) {
		python[m[1]] = m[2]
	}
	for goName, code := range serviceErrorCodes(t) {
		if got, ok := python[pythonName(goName)]; !ok || got != code {
			t.Errorf("sdk/python/botpay/errors.py: want %s = %q (the service's %s), have %q", pythonName(goName), code, goName, got)
		}
	}
}
