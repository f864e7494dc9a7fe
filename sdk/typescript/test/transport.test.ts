// Retries, idempotency keys and typed errors, against a scripted server.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { BotClient, BotpayError, ErrorCode, isBotpayError, OwnerClient } from "../src/index.js";
import { fakeServer, json, type Handler } from "./fakeserver.js";

const servers: { close: () => Promise<void> }[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function serve(handler: Handler) {
  const s = await fakeServer(handler);
  servers.push(s);
  return s;
}

const funded = { transaction: { id: 1 }, balance_usd: 25 };

describe("retries", () => {
  it("sends one Idempotency-Key on every retry of a POST after a dropped connection and a 503", async () => {
    const s = await serve((req, res, i) => {
      if (i === 0) return res.socket?.destroy();
      if (i === 1) return json(res, 503, { error: "service_unavailable", message: "down" }, { "Retry-After": "0" });
      json(res, 200, funded);
    });
    const owner = new OwnerClient({ baseUrl: s.url, token: "bpo_live_x" });
    assert.deepEqual(await owner.fund("bot_1", { amount_usd: 25 }), funded);
    assert.equal(s.requests.length, 3);
    const keys = s.requests.map((r) => r.headers["idempotency-key"]);
    assert.match(String(keys[0]), /^[0-9a-f-]{36}$/);
    assert.deepEqual(keys, [keys[0], keys[0], keys[0]]);
    assert.deepEqual(s.requests.map((r) => r.body), Array(3).fill(JSON.stringify({ amount_usd: 25 })));
  });

  it("draws a new key for each call and keeps the caller's own", async () => {
    const s = await serve((_req, res) => json(res, 200, funded));
    const owner = new OwnerClient({ baseUrl: s.url, token: "t" });
    await owner.fund("bot_1", { amount_usd: 1 });
    await owner.fund("bot_1", { amount_usd: 1 });
    await owner.fund("bot_1", { amount_usd: 1 }, { idempotencyKey: "my-key-1" });
    const [a, b, c] = s.requests.map((r) => r.headers["idempotency-key"]);
    assert.notEqual(a, b);
    assert.equal(c, "my-key-1");
  });

  it("retries a POST whose first call still runs (409 idempotency_key_in_use)", async () => {
    const s = await serve((_req, res, i) =>
      i === 0 ? json(res, 409, { error: "idempotency_key_in_use", message: "running" }, { "Retry-After": "0" }) : json(res, 200, funded));
    await new OwnerClient({ baseUrl: s.url }).fund("bot_1", { amount_usd: 1 });
    assert.equal(s.requests.length, 2);
    assert.equal(s.requests[0]?.headers["idempotency-key"], s.requests[1]?.headers["idempotency-key"]);
  });

  it("sends no Idempotency-Key on a GET and retries it after a 502", async () => {
    const s = await serve((_req, res, i) => (i === 0 ? json(res, 502, { error: "bad_gateway" }) : json(res, 200, { balance_usd: 1 })));
    const bot = new BotClient({ baseUrl: s.url, apiKey: "bp_live_x" });
    await bot.walletCheck();
    assert.equal(s.requests.length, 2);
    assert.equal(s.requests[0]?.headers["idempotency-key"], undefined);
    assert.equal(s.requests[0]?.headers.authorization, "Bearer bp_live_x");
  });

  const final: { name: string; status: number; body: object; headers?: Record<string, string> }[] = [
    { name: "a validation error", status: 400, body: { error: "validation_error", message: "bad", details: { amount_usd: "is required" } } },
    { name: "a refusal", status: 403, body: { error: "wallet_frozen", message: "frozen" } },
    { name: "a reused key", status: 409, body: { error: "idempotency_key_reused", message: "another body" } },
    { name: "a 429 whose wait is longer than allowed", status: 429, body: { error: "rate_limited", message: "slow", retry_after_seconds: 3600 } },
  ];
  for (const c of final) {
    it(`does not retry ${c.name}`, async () => {
      const s = await serve((_req, res) => json(res, c.status, c.body, c.headers));
      await assert.rejects(new OwnerClient({ baseUrl: s.url }).fund("bot_1", { amount_usd: 1 }), BotpayError);
      assert.equal(s.requests.length, 1);
    });
  }

  it("gives up after maxRetries and throws the last answer", async () => {
    const s = await serve((_req, res) => json(res, 503, { error: "service_unavailable", message: "down" }, { "Retry-After": "0" }));
    const err = await new BotClient({ baseUrl: s.url, maxRetries: 1 }).status().catch((e: unknown) => e);
    assert.ok(isBotpayError(err, ErrorCode.ServiceUnavailable));
    assert.equal(s.requests.length, 2);
  });
});

describe("errors", () => {
  it("carry the API's error, message, request_id, details and retry_after_seconds", async () => {
    const s = await serve((_req, res) =>
      json(res, 429, { error: "rate_limited", message: "too many", request_id: "req-1", retry_after_seconds: 9999 }));
    const err = await new BotClient({ baseUrl: s.url }).register({ bot_name: "b", owner_email: "o@example.com" }).catch((e: unknown) => e);
    assert.ok(err instanceof BotpayError);
    assert.equal(err.status, 429);
    assert.equal(err.error, ErrorCode.RateLimited);
    assert.equal(err.message, "too many");
    assert.equal(err.request_id, "req-1");
    assert.equal(err.retry_after_seconds, 9999);
    assert.match(String(err), /HTTP 429 rate_limited: too many .*request req-1/);
  });

  it("keep the status, X-Request-Id and the start of a body that is not the service's JSON", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(404, { "Content-Type": "text/html", "X-Request-Id": "req-2" });
      res.end("<html>proxy</html>");
    });
    const err = await new BotClient({ baseUrl: s.url }).status().catch((e: unknown) => e);
    assert.ok(err instanceof BotpayError);
    assert.equal(err.status, 404);
    assert.equal(err.error, "");
    assert.equal(err.request_id, "req-2");
    assert.equal(err.message, "<html>proxy</html>");
  });
});

describe("paths", () => {
  it("escape ids so an odd one cannot reach another route", async () => {
    const s = await serve((_req, res) => json(res, 200, {}));
    await new OwnerClient({ baseUrl: s.url }).guardrails("../../bots/mine?x=1");
    assert.equal(s.requests[0]?.url, "/api/v1/owner/bots/..%2F..%2Fbots%2Fmine%3Fx%3D1/guardrails");
  });
});
