// Real deliveries of a running service (BOTPAY_URL, with its event
// dispatcher) to a receiver here, verified by the SDK with the bot's
// webhook secret.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { verifyWebhook, WebhookVerificationError } from "../src/index.js";
import { claimedBot, skip } from "./env.js";
import { fakeServer, type Recorded } from "./fakeserver.js";

async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(done(), `timed out waiting for ${what}`);
}

describe("webhook deliveries", { skip }, () => {
  it("verify with the bot's secret, both signatures and a fresh timestamp", async () => {
    const receiver = await fakeServer((_req, res) => res.writeHead(204).end());
    try {
      const c = await claimedBot("sdk-webhook", `${receiver.url}/hooks`);
      const secret = c.reg.webhook_secret ?? "";
      assert.match(secret, /^whsec_/);
      await c.owner.fund(c.reg.bot_id, { amount_usd: 4.5 });
      const funded = (r: Recorded) => r.headers["x-service-event"] === "wallet.funded";
      await until(() => receiver.requests.some(funded), "wallet.funded");
      const delivery = receiver.requests.find(funded) as Recorded;
      assert.ok(delivery.headers["webhook-signature"], "the service sent the Standard Webhooks headers");
      const event = await verifyWebhook<{ amount?: number }>({ secret }, delivery.headers, delivery.body);
      assert.equal(event.event, "wallet.funded");
      assert.equal(event.bot_id, c.reg.bot_id);
      assert.equal(event.id, delivery.headers["x-service-delivery"]);
      const tampered = await verifyWebhook({ secret }, delivery.headers, delivery.body.replace("4.5", "450")).catch((e: unknown) => e);
      assert.ok(tampered instanceof WebhookVerificationError && tampered.reason === "bad_signature", String(tampered));
      const late = await verifyWebhook({ secret, now: () => Date.now() + 10 * 60_000 }, delivery.headers, delivery.body).catch((e: unknown) => e);
      assert.ok(late instanceof WebhookVerificationError && late.reason === "timestamp", String(late));
    } finally {
      await receiver.close();
    }
  });
});
