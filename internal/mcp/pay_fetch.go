package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/botpay/botpay/client"
	"github.com/botpay/botpay/internal/x402"
)

// maxResourceBytes bounds the body of a paid resource given to the agent.
const maxResourceBytes = 256 << 10

// fetched is one answer of the resource.
type fetched struct {
	status    int
	header    http.Header
	body      []byte
	truncated bool
}

// signedHeader is the payment header sent: PAYMENT-SIGNATURE (x402 v2) or
// X-PAYMENT (v1).
type signedHeader struct{ name, value string }

// fetch requests the resource through the outbound guard, with the
// payment header when one is set.
func (p *payer) fetch(ctx context.Context, payment signedHeader) (fetched, *sdk.CallToolResult) {
	method := p.in.Method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if p.in.Body != "" {
		body = strings.NewReader(p.in.Body)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.in.URL, body)
	if err != nil {
		return fetched{}, toolError(CodeInvalidArguments, err.Error(), nil)
	}
	if p.in.Body != "" {
		req.Header.Set("Content-Type", orText(p.in.ContentType, "application/json"))
	}
	req.Header.Set("Accept", "application/json, text/*;q=0.9, */*;q=0.8")
	req.Header.Set("User-Agent", UserAgent)
	if payment.value != "" {
		req.Header.Set(payment.name, payment.value)
	}
	resp, err := p.deps.Outbound.Client.Do(req)
	if err != nil {
		code := CodeResourceUnreachable
		if p.deps.Outbound.refused(err) {
			code = CodeDestinationRefused
		}
		return fetched{}, toolError(code, "fetching "+p.in.URL+": "+err.Error(), nil)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResourceBytes+1))
	if err != nil {
		return fetched{}, toolError(CodeResourceUnreachable, "reading "+p.in.URL+": "+err.Error(), nil)
	}
	f := fetched{status: resp.StatusCode, header: resp.Header, body: data}
	if len(data) > maxResourceBytes {
		f.body, f.truncated = data[:maxResourceBytes], true
	}
	return f, nil
}

// describe is the answer as the tool reports it: the body as text when it
// is text, else base64, and the decoded PAYMENT-RESPONSE (v2) or
// X-PAYMENT-RESPONSE (v1).
func (f fetched) describe(url string) paidResourceOut {
	out := paidResourceOut{URL: url, HTTPStatus: f.status, ContentType: f.header.Get("Content-Type"), BodyTruncated: f.truncated}
	if len(f.body) > 0 {
		if textual(out.ContentType) && utf8.Valid(f.body) {
			out.Body, out.BodyEncoding = string(f.body), "text"
		} else {
			out.Body, out.BodyEncoding = base64.StdEncoding.EncodeToString(f.body), "base64"
		}
		out.UntrustedFields = []string{"body"}
	}
	out.Settlement = settlement(f.header.Get(x402.HeaderPaymentResponse))
	if out.Settlement == nil {
		out.Settlement = settlement(f.header.Get(x402.HeaderXPaymentResponse))
	}
	return out
}

func textual(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return contentType == ""
	}
	return strings.HasPrefix(media, "text/") || strings.HasSuffix(media, "json") || strings.HasSuffix(media, "xml") ||
		media == "application/javascript" || media == "application/x-www-form-urlencoded"
}

func settlement(header string) *client.FacilitatorSettlement {
	if header == "" {
		return nil
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(header))
	if err != nil {
		return nil
	}
	var s client.FacilitatorSettlement
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	return &s
}
