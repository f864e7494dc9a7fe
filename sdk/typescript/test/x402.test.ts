// Paying x402 resources through the signing endpoint of a running service
// (BOTPAY_URL): a botpay checkout page (a real seller on the service), and
// stock sellers scripted here that check the payment header of their
// version as a stock x402 server would.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { decodeBase64Json, X402PaymentError, type PaidResponse, type PaymentOffer } from "../src/index.js";
import { fakeServer, json } from "./fakeserver.js";
import { baseUrl, bot, botId, claimedBot, owner, skip } from "./env.js";
const payTo = "0x1111111111111111111111111111111111111111";
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64");

/** A botpay seller's checkout page paid with x402, and its 402 offer. */
async function botpaySeller(amountUsd: number) {
  const seller = await claimedBot("sdk-seller");
  const page = await seller.bot.createCheckoutPage({ title: "SDK x402 report", amount_usd: amountUsd });
  const url = `${baseUrl}/api/v1/checkout/${page.checkout_page_id}/x402`;
  const first = await fetch(url);
  assert.equal(first.status, 402);
  const body = (await first.json()) as { accepts: PaymentOffer[] };
  return { seller, page, url, offer: body.accepts[0] as PaymentOffer, v2: first.headers.has("payment-required") };
}

describe("x402 payments", { skip }, () => {
  before(async () => {
    await owner.createProcessorWallet(botId);
    await owner.fund(botId, { amount_usd: 20, rail: "processor_wallet" });
  });

  it("pay a botpay checkout page and report the decoded settlement", async () => {
    const s = await botpaySeller(0.5);
    const paid = await bot.payX402(s.url, { maxAmountUsdc: 500_000 });
    assert.equal(paid.response.status, 200, await paid.response.clone().text());
    assert.equal(paid.paid, true);
    // A botpay seller asks in v2 too, and the service signs the v2 payload.
    assert.equal(s.v2, true);
    assert.equal(paid.version, 2);
    assert.ok(paid.signed?.payment_signature_header);
    assert.equal(paid.offer?.payTo, s.offer.payTo);
    assert.equal(paid.settlement?.success, true);
    assert.equal(paid.settlement?.payer?.toLowerCase(), paid.signed?.from.toLowerCase());
    const sales = [];
    for await (const sale of s.seller.bot.allSales({ checkout_page_id: s.page.checkout_page_id })) sales.push(sale);
    assert.equal(sales.length, 1);
    assert.equal(sales[0]?.amount_usd, 0.5);
  });

  it("refuse a resource asking more than the bot allows, before signing", async () => {
    const s = await botpaySeller(2);
    const err = await bot.payX402(s.url, { maxAmountUsdc: 1_999_999 }).catch((e: unknown) => e);
    assert.ok(err instanceof X402PaymentError && err.reason === "over_limit", String(err));
    assert.equal(err.signed, undefined);
  });

  it("refuse a 402 with no exact offer on the networks the bot pays on", async () => {
    const s = await botpaySeller(1);
    const err = await bot.payX402(s.url, { maxAmountUsdc: 1_000_000, networks: ["solana"] }).catch((e: unknown) => e);
    assert.ok(err instanceof X402PaymentError && err.reason === "no_offer", String(err));
  });

  it("return a resource that asks no payment as it came", async () => {
    const paid = await bot.payX402(`${baseUrl}/openapi.json`, { maxAmountUsdc: 1 });
    assert.equal(paid.paid, false);
    assert.equal(paid.response.status, 200);
  });

  it("pay a stock x402 v1 seller with the standard payload in X-PAYMENT", async () => {
    const { offer } = await botpaySeller(0.25);
    const stockOffer = { ...offer, payTo, resource: "" };
    let seen: Record<string, unknown> | undefined;
    const seller = await fakeServer((req, res) => {
      const header = req.headers["x-payment"];
      if (typeof header !== "string") return json(res, 402, { x402Version: 1, error: "X-PAYMENT header is required", accepts: [stockOffer] });
      seen = decodeBase64Json(header) as Record<string, unknown>;
      json(res, 200, { report: "ok" }, { "X-PAYMENT-RESPONSE": b64({ success: true, transaction: "0xabc", network: offer.network, payer: "0xpayer" }) });
    });
    try {
      stockOffer.resource = `${seller.url}/report`;
      const paid = await bot.payX402(`${seller.url}/report`, { maxAmountUsdc: 250_000 });
      assert.equal(paid.version, 1);
      assert.deepEqual(await paid.response.json(), { report: "ok" });
      assert.deepEqual(paid.settlement, { success: true, transaction: "0xabc", network: offer.network, payer: "0xpayer" });
      const payload = seen?.payload as { signature: string; authorization: Record<string, string> } | undefined;
      assert.equal(seen?.x402Version, 1);
      assert.equal(seen?.scheme, "exact");
      assert.equal(seen?.network, offer.network);
      assert.equal(payload?.authorization.to?.toLowerCase(), payTo);
      assert.equal(payload?.authorization.value, "250000");
      assert.match(payload?.signature ?? "", /^0x[0-9a-f]{130}$/i);
    } finally {
      await seller.close();
    }
  });

  it("pay a stock x402 v2 seller with PAYMENT-SIGNATURE", async () => {
    const { offer } = await botpaySeller(0.75);
    const network = offer.network === "base" ? "eip155:8453" : offer.network === "base-sepolia" ? "eip155:84532" : offer.network;
    const accepted = { scheme: "exact", network, amount: "750000", asset: offer.asset, payTo, maxTimeoutSeconds: 60, extra: offer.extra };
    let seen: Record<string, unknown> | undefined;
    const seller = await fakeServer((req, res) => {
      const header = req.headers["payment-signature"];
      if (typeof header !== "string") {
        const required = { x402Version: 2, error: "PAYMENT-SIGNATURE header is required", resource: { url: `http://${req.headers.host}/v2`, description: "report", mimeType: "application/json" }, accepts: [accepted] };
        return json(res, 402, {}, { "PAYMENT-REQUIRED": b64(required) });
      }
      seen = decodeBase64Json(header) as Record<string, unknown>;
      json(res, 200, { report: "v2" }, { "PAYMENT-RESPONSE": b64({ success: true, transaction: "0xdef", network, payer: "0xpayer", amount: "750000" }) });
    });
    try {
      const paid: PaidResponse = await bot.payX402(`${seller.url}/v2`, { maxAmountUsdc: 750_000 });
      assert.equal(paid.version, 2);
      assert.deepEqual(await paid.response.json(), { report: "v2" });
      assert.equal(paid.settlement?.amount, "750000");
      assert.equal(seen?.x402Version, 2);
      assert.deepEqual(seen?.accepted, accepted);
      const payload = seen?.payload as { authorization: Record<string, string> } | undefined;
      assert.equal(payload?.authorization.to?.toLowerCase(), payTo);
      assert.equal(payload?.authorization.value, "750000");
    } finally {
      await seller.close();
    }
  });
});

