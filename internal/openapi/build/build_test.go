package build

import (
	"strings"
	"testing"
)

// Two operations named alike are refused when the document is built, since
// generated clients name their functions after operation ids.
func TestDocumentRefusesADuplicateOperationID(t *testing.T) {
	t.Parallel()
	src := `
openapi: 3.1.0
paths:
  /a:
    get: {operationId: same, responses: {}}
  /b:
    get: {operationId: same, responses: {}}
webhooks: {}
`
	_, err := Document([]byte(src))
	if err == nil || !strings.Contains(err.Error(), `operationId "same"`) {
		t.Fatalf("Document = %v, want an error naming the duplicate operationId", err)
	}
}
