package openapi_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/botpay/botpay/internal/openapi"
)

// The document is also valid OpenAPI 3.1 by a second, independent
// implementation, kin-openapi, which checks every example and default
// against its schema and reports every problem, not the first.
func TestDocumentIsValidByKinOpenAPI(t *testing.T) {
	t.Parallel()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openapi.JSON)
	if err != nil {
		t.Fatalf("kin-openapi cannot load the document: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Fatalf("kin-openapi reads version %q, not 3.1", doc.OpenAPI)
	}
	err = doc.Validate(context.Background(),
		openapi3.EnableExamplesValidation(),
		openapi3.EnableSchemaDefaultsValidation(),
		openapi3.EnableSchemaPatternValidation(),
		openapi3.EnableMultiError(),
	)
	if err == nil {
		return
	}
	var all openapi3.MultiError
	if !errors.As(err, &all) {
		t.Fatalf("kin-openapi: the document is not valid: %v", err)
	}
	var lines []string
	for _, e := range all {
		lines = append(lines, e.Error())
	}
	t.Fatalf("kin-openapi: the document is not valid (%d problems):\n%s", len(lines), strings.Join(lines, "\n"))
}
