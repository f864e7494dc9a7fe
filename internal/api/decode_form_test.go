package api

import (
	"maps"
	"testing"

	"github.com/botpay/botpay/wire"
)

func TestFormNamesAMemberByItsJSONTag(t *testing.T) {
	t.Parallel()
	var reg wire.RegisterRequest
	var page wire.CheckoutPageRequest
	var lim wire.GuardrailsChangeLimits
	tests := []struct {
		name        string
		structPtr   any
		field, want string
		member      any
	}{
		{"first member, at the struct's own address", &reg, "BotName", "bot_name", &reg.BotName},
		{"optional pointer member", &reg, "LocalPort", "local_port", &reg.LocalPort},
		{"last member", &reg, "WebhookPath", "webhook_path", &reg.WebhookPath},
		{"money member", &page, "AmountUSD", "amount_usd", &page.AmountUSD},
		{"list member with omitzero", &page, "AllowedMethods", "allowed_methods", &page.AllowedMethods},
		{"member of a nested type", &lim, "AskApprovalAboveUSD", "ask_approval_above_usd", &lim.AskApprovalAboveUSD},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := jsonName(tt.structPtr, tt.member); got != tt.want {
				t.Errorf("jsonName(%s) = %q, want %q", tt.field, got, tt.want)
			}
		})
	}
}

func TestFormRefusesAPointerThatIsNotAMember(t *testing.T) {
	t.Parallel()
	var reg, other wire.RegisterRequest
	for name, field := range map[string]any{"member of another value": &other.BotName, "not a pointer": reg.BotName} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("jsonName did not panic")
				}
			}()
			jsonName(&reg, field)
		})
	}
}

// TestFormReportsWhatTheReadersByNameReport reads each body twice, once
// through a form into wire.RegisterRequest and once with the readers
// called by name, and wants the same values and the same problems.
func TestFormReportsWhatTheReadersByNameReport(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, body string }{
		{"valid", `{"bot_name":"b","owner_email":"o@example.com","local_port":18789,"webhook_path":"/h"}`},
		{"required members absent", `{}`},
		{"required members null or blank", `{"bot_name":null,"owner_email":"  "}`},
		{"wrong types", `{"bot_name":1,"owner_email":true,"description":[],"local_port":"80","webhook_path":{}}`},
		{"integer out of range", `{"bot_name":"b","owner_email":"o","local_port":2147483649}`},
		{"NUL in text", `{"bot_name":"\u0000","owner_email":"o","bot_type":"\u0000"}`},
		{"optional members null", `{"bot_name":"b","owner_email":"o","description":null,"local_port":null,"webhook_path":null}`},
		{"optional text empty", `{"bot_name":"b","owner_email":"o","webhook_path":""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			viaForm, byName := mustDecode(t, tt.body), mustDecode(t, tt.body)
			var req wire.RegisterRequest
			f := viaForm.into(&req)
			f.text(&req.BotName)
			f.text(&req.OwnerEmail)
			f.optText(&req.Description)
			f.integer(&req.LocalPort)
			f.optText(&req.WebhookPath)
			f.optText(&req.BotType)
			name, email, description := byName.required("bot_name"), byName.required("owner_email"), byName.optional("description")
			port, path, _ := byName.integer("local_port"), byName.optStr("webhook_path"), byName.optional("bot_type")
			if !maps.Equal(viaForm.problems, byName.problems) {
				t.Fatalf("problems via the form %v, by name %v", viaForm.problems, byName.problems)
			}
			if req.BotName != name || req.OwnerEmail != email || deref(req.Description) != description ||
				deref(req.LocalPort) != deref(port) || (req.LocalPort == nil) != (port == nil) ||
				deref(req.WebhookPath) != deref(path) || (req.WebhookPath == nil) != (path == nil) {
				t.Errorf("values via the form %+v differ from those by name (%q %q %q %v %v)", req, name, email, description, port, path)
			}
		})
	}
}

func TestFormReadsAListOnlyWhenItWasSent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body    string
		sent    bool
		wantLen int
	}{
		{`{}`, false, 0},
		{`{"allowed_methods":null}`, false, 0},
		{`{"allowed_methods":[]}`, true, 0},
		{`{"allowed_methods":["x402"]}`, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			var req wire.CheckoutPageRequest
			body := mustDecode(t, tt.body)
			body.into(&req).strings(&req.AllowedMethods)
			got := sentList(req.AllowedMethods)
			if (got != nil) != tt.sent || (got != nil && len(*got) != tt.wantLen) {
				t.Errorf("sentList = %v, want sent %v with %d items", got, tt.sent, tt.wantLen)
			}
		})
	}
}

func mustDecode(t *testing.T, body string) *object {
	t.Helper()
	o, err := decodeObject([]byte(body))
	if err != nil {
		t.Fatalf("decodeObject(%s): %v", body, err)
	}
	return o
}
