package skills

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/botpay/botpay/internal/botpay"
)

// FileError is a problem in one catalogue file; Where names the JSON field or
// Markdown section at fault ("" for the file as a whole).
type FileError struct {
	File    string
	Where   string
	Problem string
}

func (e *FileError) Error() string {
	if e.Where == "" {
		return e.File + ": " + e.Problem
	}
	return e.File + ": " + e.Where + ": " + e.Problem
}

// problem is a FileError before the file name is known.
type problem struct{ where, text string }

func fieldProblem(field, format string, args ...any) *problem {
	return &problem{where: "field " + strconv.Quote(field), text: fmt.Sprintf(format, args...)}
}

// dataFields are the keys of a vendor data file: the fields of a vendor
// skill entry (docs/api.md) except
// skill_url, which the service derives from its public address.
var dataFields = []string{"slug", "name", "category", "url", "checkout_methods", "capabilities", "maturity",
	"agent_friendliness", "guest_checkout", "bulk_pricing", "free_shipping_above", "catalog_url", "version",
	"last_verified", "success_rate"}

// decodeVendor reads a vendor data file strictly: every field present, no
// unknown field, each of its JSON type. Range and vocabulary checks are
// validateVendor's.
func decodeVendor(data []byte) (Vendor, *problem) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return Vendor{}, &problem{text: jsonProblem(data, err)}
	}
	if raw == nil {
		return Vendor{}, &problem{text: "must be a JSON object"}
	}
	for key := range raw {
		if key == "skill_url" {
			return Vendor{}, fieldProblem(key, "is derived from BOTPAY_BASE_URL; remove it from the file")
		}
		if !slices.Contains(dataFields, key) {
			return Vendor{}, fieldProblem(key, "is not a vendor field (known: %s)", strings.Join(dataFields, ", "))
		}
	}
	for _, key := range dataFields {
		if _, ok := raw[key]; !ok {
			return Vendor{}, fieldProblem(key, "is required")
		}
	}
	d := fieldDecoder{raw: raw}
	v := Vendor{
		Slug: d.str("slug"), Name: d.str("name"), Category: d.str("category"), URL: d.str("url"),
		CheckoutMethods: d.strs("checkout_methods"), Capabilities: d.strs("capabilities"), Maturity: d.str("maturity"),
		AgentFriendliness: d.integer("agent_friendliness"), GuestCheckout: d.boolean("guest_checkout"),
		BulkPricing: d.boolean("bulk_pricing"), FreeShippingAbove: d.optMoney("free_shipping_above"),
		CatalogURL: d.str("catalog_url"), Version: d.str("version"), LastVerified: d.str("last_verified"),
		SuccessRate: d.optNumber("success_rate"),
	}
	return v, d.err
}

func jsonProblem(data []byte, err error) string {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		line := 1 + bytes.Count(data[:min(int(syntax.Offset), len(data))], []byte("\n"))
		return fmt.Sprintf("invalid JSON at line %d: %v", line, err)
	}
	return "must be a JSON object"
}

// fieldDecoder decodes typed fields and keeps the first problem.
type fieldDecoder struct {
	raw map[string]json.RawMessage
	err *problem
}

func (d *fieldDecoder) decode(field, want string, dst any) bool {
	if d.err != nil {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(d.raw[field]))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		d.err = fieldProblem(field, "must be %s", want)
		return false
	}
	return true
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func (d *fieldDecoder) str(field string) string {
	var s *string
	if !d.decode(field, "a string", &s) {
		return ""
	}
	if s == nil {
		d.err = fieldProblem(field, "must be a string, not null")
		return ""
	}
	return *s
}

func (d *fieldDecoder) strs(field string) []string {
	var list []string
	if isNull(d.raw[field]) {
		d.err = fieldProblem(field, "must be an array of strings, not null")
		return nil
	}
	if !d.decode(field, "an array of strings", &list) {
		return nil
	}
	return list
}

func (d *fieldDecoder) boolean(field string) bool {
	var b *bool
	if !d.decode(field, "true or false", &b) {
		return false
	}
	if b == nil {
		d.err = fieldProblem(field, "must be true or false, not null")
		return false
	}
	return *b
}

func (d *fieldDecoder) number(field, want string) *json.Number {
	var n *json.Number
	if bytes.HasPrefix(bytes.TrimSpace(d.raw[field]), []byte(`"`)) {
		// json.Number would accept "80" in quotes; a data file must not.
		if d.err == nil {
			d.err = fieldProblem(field, "must be %s, not a string", want)
		}
		return nil
	}
	if !d.decode(field, want, &n) {
		return nil
	}
	return n
}

func (d *fieldDecoder) integer(field string) int {
	n := d.number(field, "an integer from 0 to 100")
	if n == nil {
		if d.err == nil {
			d.err = fieldProblem(field, "must be an integer from 0 to 100, not null")
		}
		return 0
	}
	i, err := strconv.Atoi(n.String())
	if err != nil {
		d.err = fieldProblem(field, "must be an integer from 0 to 100, got %s", n)
	}
	return i
}

func (d *fieldDecoder) optMoney(field string) *botpay.Money {
	n := d.number(field, "a number of US dollars or null")
	if n == nil {
		return nil
	}
	m, err := botpay.ParseUSD(n.String())
	if err != nil || m < 0 {
		d.err = fieldProblem(field, "must be a non-negative number of US dollars or null, got %s", n)
		return nil
	}
	return &m
}

func (d *fieldDecoder) optNumber(field string) *float64 {
	n := d.number(field, "a number from 0 to 1 or null")
	if n == nil {
		return nil
	}
	f, err := n.Float64()
	if err != nil {
		d.err = fieldProblem(field, "must be a number from 0 to 1 or null, got %s", n)
		return nil
	}
	return &f
}
