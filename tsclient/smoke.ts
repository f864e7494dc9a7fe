// Register a bot, then check its wallet, with a client generated from
// GET /openapi.json: every path, body and answer here is typed by the
// document, so a change to the contract that breaks clients fails tsc.
import createClient from "openapi-fetch";
import type { paths } from "./build/schema.js";

// (No @types/node: the one thing needed from Node is its environment.)
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const baseUrl = env.BOTPAY_URL;
if (!baseUrl) throw new Error("BOTPAY_URL is not set");

const anonymous = createClient<paths>({ baseUrl });
const reg = await anonymous.POST("/api/v1/bots/register", {
  body: { bot_name: "ts-client", owner_email: `ts-${Date.now()}@example.com` },
});
if (!reg.data) throw new Error(`register failed: ${reg.response.status} ${JSON.stringify(reg.error)}`);
const apiKey: string = reg.data.api_key;

const bot = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
const wallet = await bot.GET("/api/v1/bot/wallet/check");
if (!wallet.data) throw new Error(`wallet check failed: ${wallet.response.status}`);
const status: string = wallet.data.wallet_status;
const balance: number = wallet.data.balance_usd;
console.log(JSON.stringify({ bot_id: reg.data.bot_id, wallet_status: status, balance_usd: balance }));
