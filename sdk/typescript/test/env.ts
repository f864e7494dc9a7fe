// The running service the tests talk to (BOTPAY_URL) and the claimed bot
// funded with $100 that internal/sdktest prepared on it (BOTPAY_API_KEY,
// BOTPAY_BOT_ID, BOTPAY_OWNER_TOKEN). Without BOTPAY_URL the tests that need
// the service are skipped.
import { randomBytes } from "node:crypto";
import { BotClient, OwnerClient, type Registration } from "../src/index.js";

const env = process.env;
export const baseUrl = env.BOTPAY_URL ?? "";
export const skip = baseUrl ? false : "BOTPAY_URL is not set (internal/sdktest sets it)";

export const bot = new BotClient({ baseUrl: baseUrl || "http://unset.invalid", apiKey: env.BOTPAY_API_KEY });
export const owner = new OwnerClient({ baseUrl: baseUrl || "http://unset.invalid", token: env.BOTPAY_OWNER_TOKEN });
export const botId = env.BOTPAY_BOT_ID ?? "";
export const anonymous = new BotClient({ baseUrl: baseUrl || "http://unset.invalid" });

export function uniqueEmail(name: string): string {
  return `${name}-${randomBytes(4).toString("hex")}@example.com`;
}

/** A new bot claimed by a new owner, both through the SDK. */
export async function claimedBot(name: string, callbackUrl?: string): Promise<{ bot: BotClient; owner: OwnerClient; token: string; reg: Registration }> {
  const reg = await anonymous.register({ bot_name: name, owner_email: uniqueEmail(name), callback_url: callbackUrl });
  const session = await new OwnerClient({ baseUrl }).signup(uniqueEmail(`${name}-owner`), "correct horse battery staple");
  const o = new OwnerClient({ baseUrl, token: session.token });
  await o.claim(reg.claim_token ?? "");
  return { bot: anonymous.withApiKey(reg.api_key), owner: o, token: session.token, reg };
}

