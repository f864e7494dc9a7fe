// @botpay/sdk: the bot and owner APIs of botpay, typed from its OpenAPI
// document, with cursor iteration, typed errors, idempotent retries,
// webhook verification and x402 payments. No dependency beyond the
// platform's fetch and Web Crypto.
export * from "./errors.js";
export * from "./transport.js";
export * from "./types.js";
export * from "./pagination.js";
export * from "./bot.js";
export * from "./owner.js";
export * from "./webhook.js";
export * from "./x402.js";
