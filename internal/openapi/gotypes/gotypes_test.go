package gotypes

import (
	"strings"
	"testing"

	"github.com/botpay/botpay/internal/openapi/build"
)

const sample = `
openapi: 3.1.0
info: {title: t, version: "1"}
paths:
  /things:
    post:
      operationId: createThing
      requestBody:
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name: {type: string}
                note: {type: string, description: "Shown to the buyer."}
                hint: {type: string, description: "Say ` + "`why`" + `."}
                t: {type: string, x-go-name: Token}
      responses:
        "201":
          description: made
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Thing"}
components:
  schemas:
    USD: {type: number}
    Timestamp: {type: string}
    Thing:
      type: object
      required: [id, price_usd, parent_id, tags, owner, made_at, reason]
      properties:
        id: {type: string}
        price_usd: {$ref: "#/components/schemas/USD"}
        count: {type: integer}
        amount_cents: {type: integer, format: int64}
        amount_usdc: {type: integer, x-go-type: MicroUSDC}
        parent_id: {type: [string, "null"]}
        tags: {type: array, items: {type: string}}
        extras: {type: object, additionalProperties: {type: string}}
        either: {oneOf: [{type: string}, {type: integer}]}
        made_at: {$ref: "#/components/schemas/Timestamp"}
        version: {enum: [1, 2]}
        reason: {enum: [late, null]}
        done: {const: true}
        owner:
          type: object
          required: [email]
          properties: {email: {type: string}}
        line_items:
          type: array
          items: {type: object, properties: {qty: {type: number}}}
`

func TestGeneratedTypesFollowTheDocumentedRules(t *testing.T) {
	t.Parallel()
	doc, err := build.Document([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Generate(doc, "wire")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Join(strings.Fields(string(out)), " ")
	for _, want := range []string{
		"ID string `json:\"id\"`",                                                    // required: a value
		"PriceUSD USD `json:\"price_usd\"`",                                          // money has its own type
		"Count *int `json:\"count,omitempty\"`",                                      // optional: a pointer
		"AmountCents *int64 `json:\"amount_cents,omitempty\"`",                       // format int64
		"AmountUSDC *MicroUSDC `json:\"amount_usdc,omitempty\"`",                     // x-go-type
		"ParentID *string `json:\"parent_id\"`",                                      // required but null: written
		"Tags []string `json:\"tags\"`",                                              // a list
		"Extras map[string]string `json:\"extras,omitzero\"`",                        // a map, left out when nil
		"Either any `json:\"either,omitzero\"`",                                      // a union of types
		"MadeAt Timestamp `json:\"made_at\"`",                                        // times have their own type
		"Owner ThingOwner `json:\"owner\"`",                                          // inline object named by its place
		"LineItems []ThingLineItem `json:\"line_items,omitzero\"`",                   // list items named in the singular
		"Qty *json.Number `json:\"qty,omitempty\"`",                                  // numbers stay exact
		"type CreateThingRequest struct",                                             // an inline request body
		"Note *string `json:\"note,omitempty\" jsonschema:\"Shown to the buyer.\"`",  // a description for schema inference
		`Hint *string "json:\"hint,omitempty\" jsonschema:\"Say ` + "`why`" + `.\""`, // a backtick needs a quoted tag
		"Version *int `json:\"version,omitempty\"`",                                  // an enum of integers
		"Reason *string `json:\"reason\"`",                                           // a required enum with null: written as null
		"Done *bool `json:\"done,omitempty\"`",                                       // a boolean const
		"Token *string `json:\"t,omitempty\"`",                                       // x-go-name on an optional member
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the generated source lacks %q:\n%s", want, out)
		}
	}
}

func TestExportedNamesFollowGoInitialisms(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"callback_url": "CallbackURL", "x402Version": "X402Version", "bot_id": "BotID",
		"EventData_wallet.funded": "EventDataWalletFunded", "amount_usdc": "AmountUSDC",
		"payTo": "PayTo", "owner_uid": "OwnerUID",
	} {
		if got := exported(in); got != want {
			t.Errorf("exported(%q) = %q, want %q", in, got, want)
		}
	}
}
