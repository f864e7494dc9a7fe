package openapi_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/internal/openapi"
	"github.com/botpay/botpay/internal/openapi/build"
)

// eventData is every event's Go data type; the test below fails when the
// document's webhooks and this list part ways.
var eventData = []botpay.EventData{
	botpay.WalletActivatedData{}, botpay.WalletFundedData{}, botpay.WalletTopupCompletedData{},
	botpay.SpendAuthorizedData{}, botpay.SpendDeclinedData{}, botpay.BalanceLowData{},
	botpay.PaymentReceivedData{}, botpay.SaleCompletedData{}, botpay.PurchaseApprovedData{},
	botpay.PurchaseRejectedData{}, botpay.PurchaseExpiredData{}, botpay.Rail5CardDeliveredData{},
	botpay.Rail5CheckoutCompletedData{}, botpay.Rail5CheckoutFailedData{}, botpay.RailsUpdatedData{},
	botpay.RefundCompletedData{},
}

// Each webhook's data schema is its Go type: the same properties with the
// same JSON types, required exactly when the field is always written.
func TestWebhookDataSchemasMatchTheEventTypes(t *testing.T) {
	t.Parallel()
	doc, err := build.Parse(openapi.JSON)
	if err != nil {
		t.Fatal(err)
	}
	hooks := doc.Obj("webhooks")
	var typed []string
	for _, data := range eventData {
		typ := data.EventType()
		typed = append(typed, typ)
		schema := webhookData(doc, hooks.Obj(typ))
		if schema == nil {
			t.Errorf("%s: no webhook with a data schema", typ)
			continue
		}
		for _, problem := range schemaProblems(doc, schema, reflect.TypeOf(data)) {
			t.Errorf("%s: %s", typ, problem)
		}
	}
	for _, typ := range hooks.Keys() {
		if !slices.Contains(typed, typ) {
			t.Errorf("webhook %s has no Go event type", typ)
		}
	}
}

// webhookData is the schema of a webhook's data: the body's schema is
// allOf the shared envelope and the event's own properties.
func webhookData(doc, hook *build.Object) *build.Object {
	body := hook.Obj("post").Obj("requestBody").Obj("content").Obj("application/json").Obj("schema")
	for _, part := range build.ListOf(body.Get("allOf")) {
		if data := part.Obj("properties").Obj("data"); data != nil {
			return build.Resolve(doc, data)
		}
	}
	return nil
}

func schemaProblems(doc, schema *build.Object, typ reflect.Type) []string {
	props := schema.Obj("properties")
	var required []string
	for _, r := range schema.Get("required").([]any) {
		required = append(required, r.(string))
	}
	var problems, fields []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		omitted := opts == "omitempty"
		fields = append(fields, name)
		p := props.Obj(name)
		if p == nil {
			problems = append(problems, "field "+name+" is not in the schema")
			continue
		}
		if want, got := jsonTypes(f.Type, omitted), schemaTypes(doc, p); !slices.Equal(want, got) {
			problems = append(problems, "field "+name+" is "+strings.Join(want, "|")+", the schema says "+strings.Join(got, "|"))
		}
		if always := slices.Contains(required, name); always == omitted {
			problems = append(problems, "field "+name+": omitempty is "+map[bool]string{true: "set", false: "unset"}[omitted]+
				" but the schema's required "+map[bool]string{true: "lists", false: "omits"}[always]+" it")
		}
	}
	for _, name := range props.Keys() {
		if !slices.Contains(fields, name) {
			problems = append(problems, "schema property "+name+" has no field")
		}
	}
	return problems
}

var (
	amountType     = reflect.TypeFor[botpay.EventAmount]()
	checkoutIDType = reflect.TypeFor[botpay.EventCheckoutID]()
	timestampType  = reflect.TypeFor[botpay.Timestamp]()
	moneyType      = reflect.TypeFor[botpay.Money]()
)

// jsonTypes are the JSON types a field encodes to, sorted; a pointer left
// nil encodes null unless the field is omitted then.
func jsonTypes(t reflect.Type, omitted bool) []string {
	var out []string
	switch {
	case t.Kind() == reflect.Pointer:
		out = jsonTypes(t.Elem(), omitted)
		if !omitted {
			out = append(out, "null")
		}
	case t == amountType, t == moneyType:
		out = []string{"number"}
	case t == checkoutIDType:
		out = []string{"integer", "string"}
	case t == timestampType, t.Kind() == reflect.String:
		out = []string{"string"}
	case t.Kind() == reflect.Int64, t.Kind() == reflect.Int:
		out = []string{"integer"}
	default:
		out = []string{"unknown " + t.String()}
	}
	slices.Sort(out)
	return out
}

func schemaTypes(doc, p *build.Object) []string {
	p = build.Resolve(doc, p)
	var out []string
	switch v := p.Get("type").(type) {
	case string:
		out = []string{v}
	case []any:
		for _, t := range v {
			out = append(out, t.(string))
		}
	}
	slices.Sort(out)
	return out
}
