// Webhook verification against deliveries signed exactly as the service
// signs them (X-Service-Signature and the Standard Webhooks headers).
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, it } from "node:test";
import { standardKey, verifyWebhook, WebhookVerificationError, type WebhookFailure } from "../src/index.js";

const secret = "whsec_" + "ab".repeat(24);
const body = JSON.stringify({ event: "wallet.funded", timestamp: "2026-11-27T10:00:00.000Z", bot_id: "bot_1", data: { amount: 12.5 } });
const now = 1_796_000_000_000;

/** The headers the service sends for body at unix seconds ts. */
function signed(payload: string, ts: number, key = secret): Record<string, string> {
  const standard = (k: Buffer) => "v1," + createHmac("sha256", k).update(`evt_1.${ts}.${payload}`).digest("base64");
  return {
    "x-service-signature": "sha256=" + createHmac("sha256", key).update(payload).digest("hex"),
    "x-service-event": "wallet.funded",
    "x-service-delivery": "evt_1",
    "webhook-id": "evt_1",
    "webhook-timestamp": String(ts),
    // The service lists the standard signature, then the legacy one keyed with the string.
    "webhook-signature": `${standard(Buffer.from(standardKey(key)))} ${standard(Buffer.from(key))}`,
  };
}

async function refusal(headers: Record<string, string>, payload = body, opts: { allowMissingTimestamp?: boolean } = {}): Promise<WebhookFailure> {
  try {
    await verifyWebhook({ secret, now: () => now, ...opts }, headers, payload);
  } catch (err) {
    assert.ok(err instanceof WebhookVerificationError, String(err));
    return err.reason;
  }
  assert.fail("the delivery was accepted");
}

describe("verifyWebhook", () => {
  it("accepts a delivery signed by both schemes and decodes it with its event id", async () => {
    const event = await verifyWebhook({ secret, now: () => now }, new Headers(signed(body, now / 1000)), body);
    assert.equal(event.id, "evt_1");
    assert.equal(event.event, "wallet.funded");
    assert.deepEqual(event.data, { amount: 12.5 });
  });

  it("accepts the raw bytes as well as a string", async () => {
    const event = await verifyWebhook({ secret, now: () => now }, signed(body, now / 1000), new TextEncoder().encode(body));
    assert.equal(event.bot_id, "bot_1");
  });

  it("keys the standard signature with the base64 decoding of the secret", () => {
    assert.equal(standardKey(secret).length, 36);
    assert.deepEqual(standardKey("no-prefix"), new TextEncoder().encode("no-prefix"));
  });

  const cases: { name: string; headers: () => Record<string, string>; payload?: string; want: WebhookFailure }[] = [
    { name: "a tampered body", headers: () => signed(body, now / 1000), payload: body.replace("12.5", "99.5"), want: "bad_signature" },
    { name: "another secret", headers: () => signed(body, now / 1000, "whsec_" + "cd".repeat(24)), want: "bad_signature" },
    { name: "no X-Service-Signature", headers: () => ({ ...signed(body, now / 1000), "x-service-signature": "" }), want: "missing_signature" },
    { name: "a malformed X-Service-Signature", headers: () => ({ ...signed(body, now / 1000), "x-service-signature": "sha256=zz" }), want: "bad_signature" },
    { name: "a replay older than the window", headers: () => signed(body, now / 1000 - 301), want: "timestamp" },
    { name: "a timestamp too far ahead", headers: () => signed(body, now / 1000 + 301), want: "timestamp" },
    { name: "a timestamp changed after signing", headers: () => ({ ...signed(body, now / 1000 - 60), "webhook-timestamp": String(now / 1000) }), want: "bad_signature" },
    { name: "a wrong standard signature", headers: () => ({ ...signed(body, now / 1000), "webhook-signature": "v1,AAAA" }), want: "bad_signature" },
    { name: "stripped Standard Webhooks headers", headers: () => strip(signed(body, now / 1000)), want: "timestamp" },
  ];
  for (const c of cases) {
    it(`refuses ${c.name}`, async () => {
      assert.equal(await refusal(c.headers(), c.payload), c.want);
    });
  }

  it("accepts stripped Standard Webhooks headers only when told to", async () => {
    const event = await verifyWebhook({ secret, allowMissingTimestamp: true }, strip(signed(body, now / 1000)), body);
    assert.equal(event.id, "evt_1");
  });

  it("keeps a replay inside a longer window the receiver chose", async () => {
    const event = await verifyWebhook({ secret, now: () => now, toleranceSeconds: 600 }, signed(body, now / 1000 - 500), body);
    assert.equal(event.event, "wallet.funded");
  });
});

function strip(h: Record<string, string>): Record<string, string> {
  const { "webhook-id": _id, "webhook-timestamp": _ts, "webhook-signature": _sig, ...rest } = h;
  return rest;
}
