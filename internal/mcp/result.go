package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
)

// Error codes of refusals made by the tools themselves; refusals of the
// service keep the service's codes (validation_error, wallet_frozen,
// guardrail_blocked, ...).
const (
	CodeInvalidArguments     = "invalid_arguments"
	CodeServiceUnreachable   = "service_unreachable"
	CodeDestinationRefused   = "destination_refused"
	CodeResourceUnreachable  = "resource_unreachable"
	CodeNoPayableRequirement = "no_payable_requirement"
	CodeOverMaxAmount        = "over_max_amount"
	CodePaymentRefused       = "payment_refused"
	CodeApprovalPending      = "approval_pending"
	CodeApprovalNotFound     = "approval_not_found"
	CodeApprovalRejected     = "approval_rejected"
	CodeApprovalMismatch     = "approval_for_another_resource"
	CodeSignedForOtherChain  = "signed_for_another_network"
)

// fromAnswer turns the endpoint's answer, as the client had it, into the
// tool's result: a 2xx JSON body is the structured output as it is (and
// its text), a refusal is a result with isError and the endpoint's error
// body. A next-step hint for the agent travels as a second text block,
// never inside the structured output, so that output stays equal to the
// endpoint's answer. err is the client's error of the call: without an
// answer it says why; beside a 2xx JSON answer it can only be the client's
// own reading of it, which the agent does not get, so it is not reported.
func fromAnswer(tool string, ans client.Answer, err error) (*sdk.CallToolResult, any, error) {
	if ans.StatusCode == 0 {
		return unreachable(err), nil, nil
	}
	if !ans.OK() {
		return refusal(ans, err), nil, nil
	}
	body := bytes.TrimSpace(ans.Body)
	if !json.Valid(body) {
		return toolError(CodeServiceUnreachable, fmt.Sprintf("%s %s answered HTTP %d with a body that is not JSON", ans.Method, ans.Path, ans.StatusCode), nil), nil, nil
	}
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(body)}}}
	if source, ok := vendorWritten[tool]; ok {
		res.Content[0].(*sdk.TextContent).Meta = untrustedMeta(source)
	}
	if hint := nextStep(tool, ans.StatusCode, body); hint != "" {
		res.Content = append(res.Content, &sdk.TextContent{Text: hint})
	}
	return res, json.RawMessage(body), nil
}

// vendorWritten names the endpoint tools whose answers carry text vendors
// wrote, and whose: their text block is marked untrusted. Their structured
// output stays the endpoint's answer.
var vendorWritten = map[string]string{
	"search_vendors": "the vendors' skill files (names, categories and notes)",
}

// refusal is a non-2xx answer as an error result: the endpoint's JSON error
// body first ({"error": code, "message": ..., ...}), then what to do. err is
// the client's *client.Error of the answer.
func refusal(ans client.Answer, err error) *sdk.CallToolResult {
	body := bytes.TrimSpace(ans.Body)
	var refused *client.Error
	if !errors.As(err, &refused) || refused.Code == "" {
		return toolError("http_"+strconv.Itoa(ans.StatusCode), fmt.Sprintf("%s %s answered HTTP %d: %s", ans.Method, ans.Path,
			ans.StatusCode, shorten(string(body), 300)), nil)
	}
	advice := fmt.Sprintf("HTTP %d %s from %s %s.", ans.StatusCode, http.StatusText(ans.StatusCode), ans.Method, ans.Path)
	if a := adviceFor(refused.Code, refused.Reason); a != "" {
		advice += " " + a
	}
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(body)}, &sdk.TextContent{Text: advice}}}
}

// toolError is a refusal made by the tool itself, in the service's error
// shape, with extra fields beside code and message.
func toolError(code, message string, extra map[string]any) *sdk.CallToolResult {
	body := map[string]any{"error": code, "message": message}
	for k, v := range extra {
		body[k] = v
	}
	text, _ := json.Marshal(body)
	res := &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(text)}}}
	if a := adviceFor(code, ""); a != "" {
		res.Content = append(res.Content, &sdk.TextContent{Text: a})
	}
	return res
}

// failed is the error result of a call of the bot API whose answer a tool
// reads (not passes through): no answer, a refusal, or an answer the
// client could not read; nil when the call succeeded.
func failed(ans client.Answer, err error) *sdk.CallToolResult {
	switch {
	case ans.StatusCode == 0 && err != nil:
		return unreachable(err)
	case !ans.OK():
		return refusal(ans, err)
	case err != nil:
		return toolError(CodeServiceUnreachable, fmt.Sprintf("%s %s answered HTTP %d unreadably: %v", ans.Method, ans.Path, ans.StatusCode, err), nil)
	}
	return nil
}

// unreachable is a call of the bot API that got no answer.
func unreachable(err error) *sdk.CallToolResult {
	return toolError(CodeServiceUnreachable, "the botpay service could not be reached: "+err.Error(), nil)
}

func shorten(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
