package mcp

import (
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// errorCode is the "error" of the JSON body leading an error result.
func errorCode(t *testing.T, content []sdk.Content) string {
	t.Helper()
	text, ok := content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("content is %T", content[0])
	}
	var body struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(text.Text), &body); err != nil {
		t.Fatalf("error text %q: %v", text.Text, err)
	}
	return body.Error
}
