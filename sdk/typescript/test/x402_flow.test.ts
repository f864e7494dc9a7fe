// The x402 flow of payX402 against a scripted signing endpoint and scripted
// sellers: which 402 form it reads, what it sends to the signing endpoint,
// and which header it pays with, for each protocol version.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { BotClient, decodeBase64Json, X402PaymentError } from "../src/index.js";
import { fakeServer, json, type Handler, type Recorded } from "./fakeserver.js";

const servers: { close: () => Promise<void> }[] = [];
after(() => Promise.all(servers.map((s) => s.close())));
async function serve(handler: Handler) {
  const s = await fakeServer(handler);
  servers.push(s);
  return s;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64");
const payTo = "0x2222222222222222222222222222222222222222";
const v1Offer = { scheme: "exact", network: "base", maxAmountRequired: "1500", resource: "", payTo, asset: "0xA", maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" } };
const v2Offer = { scheme: "exact", network: "eip155:8453", amount: "1500", payTo, asset: "0xA", maxTimeoutSeconds: 60, extra: { name: "USD Coin", version: "2" } };
const v2Required = { x402Version: 2, error: "", resource: { url: "https://seller.example/v2", description: "d", mimeType: "application/json" }, accepts: [v2Offer] };
const signed = { x_payment_header: "FLAT", signature: "0xsig", from: "0xfrom", nonce: "0xn", valid_before: 1, amount_usdc: 1500 };

/** A signing endpoint answering sign with answer, recording what it was asked. */
async function signer(answer: object, status = 200) {
  return serve((_req, res) => json(res, status, answer));
}

/** A seller that asks with ask and answers 200 to a request carrying header. */
async function seller(ask: (res: Parameters<Handler>[1]) => void, header: string, settlement: [string, object]) {
  return serve((req, res) => (req.headers[header] ? json(res, 200, { ok: true }, { [settlement[0]]: b64(settlement[1]) }) : ask(res)));
}

function signBody(s: { requests: Recorded[] }): Record<string, unknown> {
  return JSON.parse(s.requests[0]?.body ?? "{}") as Record<string, unknown>;
}

describe("payX402", () => {
  it("reads PAYMENT-REQUIRED before the v1 body and pays v2 with PAYMENT-SIGNATURE", async () => {
    const sign = await signer({ ...signed, payment_signature_header: "V2SIG" });
    const shop = await seller((res) => json(res, 402, { x402Version: 1, accepts: [{ ...v1Offer, payTo: "0xother", maxAmountRequired: "9" }] }, { "PAYMENT-REQUIRED": b64(v2Required) }),
      "payment-signature", ["PAYMENT-RESPONSE", { success: true, transaction: "0xt", network: "eip155:8453", payer: "0xfrom", amount: "1500" }]);
    const paid = await new BotClient({ baseUrl: sign.url, apiKey: "k" }).payX402(`${shop.url}/v2`, { maxAmountUsdc: 1500 });
    assert.equal(paid.version, 2);
    assert.equal(paid.response.status, 200);
    assert.equal(shop.requests[1]?.headers["payment-signature"], "V2SIG");
    assert.equal(shop.requests[1]?.headers["x-payment"], undefined);
    assert.deepEqual(paid.settlement, { success: true, transaction: "0xt", network: "eip155:8453", payer: "0xfrom", amount: "1500" });
    const body = signBody(sign);
    assert.equal(body.payment_required, shop.requests[0] && b64(v2Required));
    assert.equal(body.resource_url, "https://seller.example/v2");
    assert.equal(body.amount_usdc, 1500);
    assert.equal(body.recipient_address, payTo);
  });

  it("pays v1 with the standard payload when the service returns one, sending the body as it came", async () => {
    const sign = await signer({ ...signed, x_payment_standard_header: "STANDARD" });
    const shop = await seller((res) => json(res, 402, { x402Version: 1, error: "pay", accepts: [v1Offer] }), "x-payment",
      ["X-PAYMENT-RESPONSE", { success: true, transaction: "0xt", network: "base", payer: "0xfrom" }]);
    const paid = await new BotClient({ baseUrl: sign.url }).payX402(`${shop.url}/v1`, { maxAmountUsdc: 2000 });
    assert.equal(paid.version, 1);
    assert.equal(shop.requests[1]?.headers["x-payment"], "STANDARD");
    assert.equal(paid.settlement?.network, "base");
    assert.deepEqual(signBody(sign).payment_required, { x402Version: 1, error: "pay", accepts: [v1Offer] });
    assert.equal(signBody(sign).resource_url, `${shop.url}/v1`);
  });

  it("pays v1 with x_payment_header from a service that returns no standard payload", async () => {
    const sign = await signer(signed);
    const shop = await seller((res) => json(res, 402, { x402Version: 1, accepts: [v1Offer] }), "x-payment", ["X-PAYMENT-RESPONSE", { success: true }]);
    await new BotClient({ baseUrl: sign.url }).payX402(`${shop.url}/v1`, { maxAmountUsdc: 2000 });
    assert.equal(shop.requests[1]?.headers["x-payment"], "FLAT");
  });

  it("resends the method, body and headers of the request with the payment", async () => {
    const sign = await signer(signed);
    const shop = await seller((res) => json(res, 402, { x402Version: 1, accepts: [v1Offer] }), "x-payment", ["X-PAYMENT-RESPONSE", { success: true }]);
    await new BotClient({ baseUrl: sign.url }).payX402(`${shop.url}/q`, { maxAmountUsdc: 2000, method: "POST", body: '{"q":1}', headers: { "Content-Type": "application/json" } });
    for (const r of shop.requests) {
      assert.equal(r.method, "POST");
      assert.equal(r.body, '{"q":1}');
      assert.equal(r.headers["content-type"], "application/json");
    }
  });

  it("pays a resource that asks in both versions in v1 when the service signs no v2 payload", async () => {
    const sign = await signer(signed);
    const shop = await seller((res) => json(res, 402, { x402Version: 1, accepts: [v1Offer] }, { "PAYMENT-REQUIRED": b64(v2Required) }),
      "x-payment", ["X-PAYMENT-RESPONSE", { success: true, network: "base" }]);
    const paid = await new BotClient({ baseUrl: sign.url }).payX402(shop.url, { maxAmountUsdc: 2000 });
    assert.equal(paid.version, 1);
    assert.equal(shop.requests[1]?.headers["x-payment"], "FLAT");
    assert.equal(shop.requests[1]?.headers["payment-signature"], undefined);
    assert.equal(signBody(sign).payment_required, b64(v2Required));
  });

  it("pays the first exact offer on the networks the bot names", async () => {
    const sign = await signer(signed);
    const other = { ...v1Offer, network: "avalanche", payTo: "0x3333333333333333333333333333333333333333" };
    const shop = await seller((res) => json(res, 402, { x402Version: 1, accepts: [{ ...v1Offer, scheme: "upto" }, other, v1Offer] }), "x-payment", ["X-PAYMENT-RESPONSE", { success: true }]);
    const paid = await new BotClient({ baseUrl: sign.url }).payX402(shop.url, { maxAmountUsdc: 2000, networks: ["base"] });
    assert.equal(paid.offer?.network, "base");
    assert.equal(signBody(sign).recipient_address, payTo);
  });

  const refusals: { name: string; ask: (res: Parameters<Handler>[1]) => void; max: number; reason: string; signs: boolean; answer?: object }[] = [
    { name: "more than allowed", ask: (res) => json(res, 402, { accepts: [v1Offer] }), max: 1499, reason: "over_limit", signs: false },
    { name: "a 402 that is not x402", ask: (res) => json(res, 402, { message: "pay up" }), max: 2000, reason: "malformed_402", signs: false },
    { name: "an undecodable PAYMENT-REQUIRED", ask: (res) => json(res, 402, {}, { "PAYMENT-REQUIRED": "%%%" }), max: 2000, reason: "malformed_402", signs: false },
    { name: "a non-numeric amount", ask: (res) => json(res, 402, { accepts: [{ ...v1Offer, maxAmountRequired: "1e3" }] }), max: 2000, reason: "malformed_402", signs: false },
    { name: "no exact offer", ask: (res) => json(res, 402, { accepts: [{ ...v1Offer, scheme: "upto" }] }), max: 2000, reason: "no_offer", signs: false },
    { name: "a v2-only resource the service signed no v2 payload for", ask: (res) => json(res, 402, {}, { "PAYMENT-REQUIRED": b64(v2Required) }), max: 2000, reason: "no_signature_header", signs: true },
    { name: "a v2 resource whose v1 offer names another payee, when the service signed no v2 payload",
      ask: (res) => json(res, 402, { accepts: [{ ...v1Offer, payTo: "0x4444444444444444444444444444444444444444" }] }, { "PAYMENT-REQUIRED": b64(v2Required) }),
      max: 2000, reason: "no_signature_header", signs: true },
    { name: "a payment held for the owner", ask: (res) => json(res, 402, { accepts: [v1Offer] }), max: 2000, reason: "awaiting_approval", signs: true,
      answer: { status: "awaiting_approval", approval_id: 7, expires_at: "2026-11-27T12:00:00.000Z", message: "held" } },
  ];
  for (const c of refusals) {
    it(`does not pay ${c.name}`, async () => {
      const sign = await signer(c.answer ?? signed, c.answer ? 202 : 200);
      const shop = await seller(c.ask, "x-payment", ["X-PAYMENT-RESPONSE", { success: true }]);
      const err = await new BotClient({ baseUrl: sign.url }).payX402(shop.url, { maxAmountUsdc: c.max }).catch((e: unknown) => e);
      assert.ok(err instanceof X402PaymentError, String(err));
      assert.equal(err.reason, c.reason);
      assert.equal(err.response.status, 402);
      assert.equal(sign.requests.length, c.signs ? 1 : 0);
      assert.equal(shop.requests.length, 1, "the resource is not asked again");
    });
  }

  it("decodes base64 JSON in either alphabet, padded or not", () => {
    const text = Buffer.from(JSON.stringify({ a: "é?>" })).toString("base64");
    assert.deepEqual(decodeBase64Json(text), { a: "é?>" });
    assert.deepEqual(decodeBase64Json(text.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")), { a: "é?>" });
    assert.equal(decodeBase64Json("not base64 json"), undefined);
  });
});
