package mcp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// The output schemas come from the client's answer types, and must accept
// every answer an endpoint gives: fields typed as they are on the wire
// (amounts as numbers, times as strings, event data as anything), and none
// required, since which fields an answer holds depends on the answer.
func TestOutputSchemasTypeFieldsAsTheWireHasThem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tool, path string
		want       []string // the JSON types allowed; nil: any value
	}{
		{"check_wallet", "balance_usd", []string{"number"}},
		{"get_status", "rails.card_wallet.balance_usd", []string{"number"}},
		{"get_spending_rules", "limits.ask_approval_above_usd", []string{"null", "number"}},
		{"create_invoice", "line_items.quantity", []string{"number"}},
		{"create_invoice", "created_at", []string{"string"}},
		{"list_messages", "messages.data", nil},
		{"list_transactions", "next_cursor", []string{"null", "string"}},
		{"sign_x402_payment", "amount_usdc", []string{"integer"}},
		{"pay_x402_resource", "amount_usd", []string{"number"}},
	}
	schemas := map[string]map[string]any{}
	for _, def := range definitions() {
		raw, _ := json.Marshal(def.tool.OutputSchema)
		var s map[string]any
		json.Unmarshal(raw, &s)
		schemas[def.tool.Name] = s
		if strings.Contains(string(raw), `"required"`) {
			t.Errorf("%s: output schema requires fields: %s", def.tool.Name, raw)
		}
	}
	for _, tt := range tests {
		s := schemas[tt.tool]
		for _, name := range strings.Split(tt.path, ".") {
			if items, ok := s["items"].(map[string]any); ok {
				s = items
			}
			s, _ = s["properties"].(map[string]any)[name].(map[string]any)
		}
		if got := jsonTypes(s); !slices.Equal(got, tt.want) {
			t.Errorf("%s %s: types %v, want %v (schema %v)", tt.tool, tt.path, got, tt.want, s)
		}
	}
}

func jsonTypes(s map[string]any) []string {
	switch v := s["type"].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, t := range v {
			out = append(out, t.(string))
		}
		return out
	}
	return nil
}
