// A bot's own paid API behind the stock x402 v2 express middleware, its
// facilitator pointed at botpay, selling GET /weather for $0.02; the buyer
// is left to the caller.
// Usage: node facilitated-seller.mjs <botpay url> <bot api key> <payTo> [network, default eip155:8453]
// Output: one JSON line {"url"} once it listens; it serves until stdin closes.
import express from "express";
import { paymentMiddleware, x402ResourceServer } from "@x402/express";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { ExactEvmScheme } from "@x402/evm/exact/server";

const [botpay, apiKey, payTo, network = "eip155:8453"] = process.argv.slice(2);
const auth = { Authorization: `Bearer ${apiKey}` };
const facilitator = new HTTPFacilitatorClient({
  url: `${botpay}/api/v1/x402/facilitator`,
  createAuthHeaders: async () => ({ verify: auth, settle: auth, supported: auth }),
});
const server = new x402ResourceServer(facilitator).register(network, new ExactEvmScheme());
const app = express();
app.use(paymentMiddleware({
  "GET /weather": { accepts: { scheme: "exact", price: "$0.02", network, payTo }, description: "Today's weather" },
}, server));
app.get("/weather", (req, res) => res.json({ forecast: "sunny" }));
const listener = await new Promise((resolve) => { const l = app.listen(0, "127.0.0.1", () => resolve(l)); });
console.log(JSON.stringify({ url: `http://127.0.0.1:${listener.address().port}/weather` }));
process.stdin.resume();
process.stdin.on("end", () => { listener.close(); process.exit(0); });
