// The SDK against a running service (BOTPAY_URL), with a claimed bot funded
// with $100 (BOTPAY_API_KEY, BOTPAY_BOT_ID, BOTPAY_OWNER_TOKEN), as
// internal/sdktest starts them on each database engine. Without BOTPAY_URL
// these tests are skipped.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { BotpayError, ErrorCode, isBotpayError, OwnerClient } from "../src/index.js";
import { proxy } from "./proxy.js";

import { anonymous, baseUrl, bot, botId, claimedBot, owner, skip, uniqueEmail } from "./env.js";

describe("bot calls", { skip }, () => {
  it("read the claimed, funded bot's status, wallet, rules and ledger", async () => {
    const status = await bot.status();
    assert.equal(status.bot_id, botId);
    assert.equal(status.status, "active");
    const wallet = await bot.walletCheck();
    assert.equal(wallet.wallet_status, "active");
    assert.ok(wallet.balance_usd >= 100, `balance ${wallet.balance_usd}`);
    const rules = await bot.spending();
    assert.ok(rules.approval_mode);
    const page = await bot.transactionsPage({ limit: 1 });
    assert.equal(page.transactions.length, 1);
  });

  it("ask the owner for money and earn through a checkout page, a payment link and an invoice", async () => {
    const topup = await bot.topupRequest({ amount_usd: 5, reason: "sdk test" });
    assert.ok(topup.topup_request_id);
    const page = await bot.createCheckoutPage({ title: "SDK report", amount_usd: 3 });
    const sale = await anonymous.payCheckoutSandbox(page.checkout_page_id, { buyer_email: uniqueEmail("buyer") });
    assert.equal(sale.status, "confirmed");
    const sales = [];
    for await (const s of bot.allSales({ checkout_page_id: page.checkout_page_id })) sales.push(s);
    assert.deepEqual(sales.map((s) => s.sale_id), [sale.sale_id]);
    const link = await bot.createPaymentLink({ amount_usd: 2, description: "SDK link" });
    await anonymous.payLinkSandbox(link.payment_link_id, { buyer_email: uniqueEmail("payer") });
    const links = await bot.paymentLinksPage({ status: "completed" });
    assert.ok(links.payment_links.some((l) => l.payment_link_id === link.payment_link_id));
    const invoice = await bot.createInvoice({
      checkout_page_id: page.checkout_page_id, recipient_email: uniqueEmail("client"), recipient_name: "Client",
      line_items: [{ description: "Work", quantity: 1, unit_price_usd: 3 }],
    });
    const sent = await bot.sendInvoice(invoice.invoice_id);
    assert.equal(sent.status, "sent");
    const cancelled = await owner.cancelInvoice(invoice.invoice_id);
    assert.equal(cancelled.status, "cancelled");
  });

  it("find vendors and read a skill file, then revalidate it by its ETag", async () => {
    const first = await bot.skillsPage({}, { limit: 1 });
    const vendor = first.vendors[0];
    assert.ok(vendor, "the catalogue is empty");
    const file = await bot.skillFile(vendor.slug);
    assert.ok(file && file.markdown.length > 0 && file.etag);
    assert.equal(await bot.skillFile(vendor.slug, file.etag ?? ""), null);
  });

  it("rotate a bot's own key, the new one working", async () => {
    const c = await claimedBot("sdk-rotate");
    const rotated = await c.bot.rotateApiKey(0);
    const fresh = c.bot.withApiKey(rotated.api_key);
    assert.equal((await fresh.status()).bot_id, c.reg.bot_id);
  });
});

describe("owner calls", { skip }, () => {
  it("set guardrails, master guardrails, procurement, freeze and unfreeze", async () => {
    const rules = await owner.guardrails(botId);
    const changed = await owner.setGuardrails(botId, { notes: "set by the TypeScript SDK" });
    assert.equal(changed.notes, "set by the TypeScript SDK");
    assert.equal(changed.approval_mode, rules.approval_mode);
    const master = await owner.setMasterGuardrails({ daily_budget_usd: 500 });
    assert.equal(master.daily_budget_usd, 500);
    assert.equal((await owner.masterGuardrails()).daily_budget_usd, 500);
    await owner.setMasterGuardrails({ daily_budget_usd: null });
    const procurement = await owner.procurement(botId);
    const kept = await owner.setProcurement(botId, procurement);
    assert.deepEqual({ ...kept, updated_at: null }, { ...procurement, updated_at: null });
    // Another bot, so the tests running beside these never meet a frozen wallet.
    const c = await claimedBot("sdk-freeze");
    assert.equal((await c.owner.freeze(c.reg.bot_id, true)).frozen, true);
    assert.equal((await c.bot.status()).status, "frozen");
    assert.equal((await c.owner.freeze(c.reg.bot_id, false)).frozen, false);
    assert.equal((await c.bot.status()).status, "active");
  });

  it("issue a pairing code that registers a bot already claimed", async () => {
    const code = await owner.createPairingCode();
    const reg = await anonymous.register({ bot_name: "sdk-paired", owner_email: uniqueEmail("paired"), pairing_code: code.pairing_code });
    assert.equal(reg.status, "active");
    assert.equal(reg.paired, true);
    const mine = [];
    for await (const b of owner.allBots({ pageSize: 1 })) mine.push(b.bot_id);
    assert.deepEqual(mine.slice().sort(), [botId, reg.bot_id].sort());
  });

  it("list sessions, approvals and signing requests", async () => {
    const sessions = await owner.sessions();
    assert.ok(Array.isArray(sessions.sessions) && sessions.sessions.length > 0);
    assert.ok(Array.isArray((await owner.approvalsPage()).approvals));
    assert.ok(Array.isArray((await owner.signingRequestsPage()).approvals));
  });
});

describe("cursor iteration", { skip }, () => {
  it("walks every page of the ledger once, newest first", async () => {
    const c = await claimedBot("sdk-pages");
    for (const cents of [101, 102, 103, 104, 105]) await c.owner.fund(c.reg.bot_id, { amount_usd: cents / 100 });
    const walked = [];
    for await (const tx of c.bot.allTransactions({ pageSize: 2 })) walked.push(tx.id);
    const whole = (await c.bot.transactionsPage({ limit: 100 })).transactions.map((t) => t.id);
    assert.equal(walked.length, 5);
    assert.deepEqual(walked, whole);
    assert.equal(new Set(walked).size, 5);
  });

  it("walks staged messages and acknowledges them", async () => {
    const c = await claimedBot("sdk-messages");
    await c.owner.fund(c.reg.bot_id, { amount_usd: 1 });
    let events: string[] = [];
    for (let i = 0; i < 100 && events.length < 2; i++) {
      events = [];
      for await (const m of c.bot.allMessages({ pageSize: 1 })) events.push(m.event);
      if (events.length < 2) await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(events, ["wallet.activated", "wallet.funded"]);
    const page = await c.bot.messagesPage();
    const ack = await c.bot.ackMessages(page.messages.map((m) => m.message_id));
    assert.equal(ack.acknowledged.length, 2);
    assert.equal((await c.bot.messagesPage()).messages.length, 0);
  });
});

describe("typed errors", { skip }, () => {
  it("carry the API's code, message and request id", async () => {
    const reg = await anonymous.register({ bot_name: "sdk-unclaimed", owner_email: uniqueEmail("unclaimed") });
    const err = await anonymous.withApiKey(reg.api_key).topupRequest({ amount_usd: 1 }).catch((e: unknown) => e);
    assert.ok(err instanceof BotpayError, String(err));
    assert.equal(err.status, 403);
    assert.equal(err.error, ErrorCode.WalletNotActive);
    assert.ok(err.message.length > 0);
    assert.match(err.request_id, /^[A-Za-z0-9._-]{1,64}$/);
  });

  it("name the offending field of a validation error", async () => {
    const err = await owner.fund(botId, { amount_usd: -5 }).catch((e: unknown) => e);
    assert.ok(isBotpayError(err, ErrorCode.ValidationError), String(err));
    assert.ok("amount_usd" in err.details, JSON.stringify(err.details));
  });

  it("answer not_found for another owner's bot, and Authentication required without a key", async () => {
    const other = await claimedBot("sdk-other");
    assert.ok(isBotpayError(await owner.guardrails(other.reg.bot_id).catch((e: unknown) => e), ErrorCode.NotFound));
    assert.ok(isBotpayError(await anonymous.status().catch((e: unknown) => e), ErrorCode.AuthenticationRequired));
  });
});

describe("idempotency keys", { skip }, () => {
  it("make a retried funding whose answer was lost fund once", async () => {
    const c = await claimedBot("sdk-retry");
    const p = await proxy(baseUrl, { dropFirstAnswerOf: "POST" });
    try {
      const viaProxy = new OwnerClient({ baseUrl: p.url, token: c.token });
      const funding = await viaProxy.fund(c.reg.bot_id, { amount_usd: 7 });
      assert.equal(p.forwarded.length, 2, "the first answer was dropped and the call retried");
      assert.equal(p.forwarded[0]?.key, p.forwarded[1]?.key);
      assert.equal(funding.balance_usd, 7);
      assert.equal((await c.bot.walletCheck()).balance_usd, 7);
      assert.equal((await c.bot.transactionsPage()).transactions.length, 1);
    } finally {
      await p.close();
    }
  });

  it("refuse the same key with another body", async () => {
    const key = `sdk-${randomBytes(8).toString("hex")}`;
    await owner.fund(botId, { amount_usd: 1 }, { idempotencyKey: key });
    const replay = await owner.fund(botId, { amount_usd: 1 }, { idempotencyKey: key });
    assert.ok(replay.transaction);
    const err = await owner.fund(botId, { amount_usd: 2 }, { idempotencyKey: key }).catch((e: unknown) => e);
    assert.ok(isBotpayError(err, ErrorCode.IdempotencyKeyReused), String(err));
  });
});
