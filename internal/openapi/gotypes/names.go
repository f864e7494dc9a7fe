package gotypes

import (
	"strings"
	"unicode"
)

// initialisms are written in capitals in Go names, as the Go style has it.
var initialisms = map[string]string{
	"id": "ID", "ids": "IDs", "url": "URL", "urls": "URLs", "usd": "USD", "usdc": "USDC",
	"api": "API", "http": "HTTP", "json": "JSON", "pdf": "PDF", "ip": "IP", "uri": "URI", "uid": "UID",
	"evm": "EVM", "mcp": "MCP", "ttl": "TTL", "eip": "EIP", "tx": "TX", "utc": "UTC",
}

// exported turns a JSON or schema name (snake_case, camelCase, dotted) into
// an exported Go name: callback_url → CallbackURL, x402Version →
// X402Version, EventData_wallet.funded → EventDataWalletFunded.
func exported(name string) string {
	var b strings.Builder
	for _, word := range words(name) {
		if up, ok := initialisms[strings.ToLower(word)]; ok {
			b.WriteString(up)
			continue
		}
		r := []rune(word)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

// words splits at separators and at each lower-to-upper change.
func words(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = nil
		}
	}
	var prev rune
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return out
}

// singular names one element of a list field: line_items → LineItem.
func singular(goName string) string {
	switch {
	case strings.HasSuffix(goName, "IDs"), strings.HasSuffix(goName, "URLs"):
		return goName[:len(goName)-1]
	case strings.HasSuffix(goName, "ies"):
		return goName[:len(goName)-3] + "y"
	case strings.HasSuffix(goName, "ses"), strings.HasSuffix(goName, "xes"):
		return goName[:len(goName)-2]
	case strings.HasSuffix(goName, "s") && !strings.HasSuffix(goName, "ss"):
		return goName[:len(goName)-1]
	}
	return goName + "Item"
}
