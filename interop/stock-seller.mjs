// A stock x402 v2 seller: the @x402/express middleware with the stock
// facilitator (@x402/core + @x402/evm) run in this process against a local
// chain, selling GET /report for <amount> micro-units of <token> to <payTo>.
// Usage: node stock-seller.mjs <rpc url> <chain id> <token> <token name> <token version> <payTo> <facilitator key 0x…> <amount>
// Output: one JSON line {"url"} once it listens; it serves until stdin closes.
import express from "express";
import { paymentMiddleware, x402ResourceServer } from "@x402/express";
import { x402Facilitator } from "@x402/core/facilitator";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { ExactEvmScheme as ServerScheme } from "@x402/evm/exact/server";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { createWalletClient, defineChain, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const [rpc, chainId, token, tokenName, tokenVersion, payTo, facilitatorKey, amount] = process.argv.slice(2);
const network = `eip155:${chainId}`;
const chain = defineChain({ id: Number(chainId), name: "local", nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [rpc] } } });
const account = privateKeyToAccount(facilitatorKey);
const wallet = createWalletClient({ account, chain, transport: http(rpc) }).extend(publicActions);
const signer = toFacilitatorEvmSigner(Object.assign(wallet, { address: account.address }), { confirmationTimeoutMs: 30_000 });

const facilitator = new x402Facilitator();
registerExactEvmScheme(facilitator, { signer, networks: network });
// The resource server talks to a facilitator client; this one is in-process.
const local = {
  verify: (payload, requirements) => facilitator.verify(payload, requirements),
  settle: (payload, requirements) => facilitator.settle(payload, requirements),
  getSupported: async () => facilitator.getSupported(),
};
const server = new x402ResourceServer(local).register(network, new ServerScheme());
const app = express();
app.use(paymentMiddleware({
  "GET /report": {
    accepts: { scheme: "exact", network, payTo, price: { amount, asset: token, extra: { name: tokenName, version: tokenVersion } } },
    description: "A stock seller's report",
    mimeType: "application/json",
  },
}, server));
app.get("/report", (req, res) => res.json({ report: "paid" }));
const listener = await new Promise((resolve) => { const l = app.listen(0, "127.0.0.1", () => resolve(l)); });
console.log(JSON.stringify({ url: `http://127.0.0.1:${listener.address().port}/report` }));
process.stdin.resume();
process.stdin.on("end", () => { listener.close(); process.exit(0); });
