// A bot's own paid API with the stock x402 v2 express middleware, its
// facilitator pointed at botpay, paid by the stock v2 client.
// Usage: node facilitated.mjs <botpay url> <bot api key> <payTo> <payer key 0x…> [network, default eip155:8453]
//        [asset token name token version]: a token that is no network's default (a local chain's test
//        token) is priced as an asset amount of 20000 micro-units, and the client allows any asset.
// Output: JSON {"status", "body", "paymentResponse", "paymentSignature"};
// paymentSignature is the PAYMENT-SIGNATURE header the client sent.
import express from "express";
import { paymentMiddleware, x402ResourceServer } from "@x402/express";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { ExactEvmScheme as ServerScheme } from "@x402/evm/exact/server";
import { ExactEvmScheme as ClientScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPaymentFromConfig, decodePaymentResponseHeader } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";

const [botpay, apiKey, payTo, payerKey, network = "eip155:8453", asset, tokenName, tokenVersion] = process.argv.slice(2);
const price = asset ? { amount: "20000", asset, extra: { name: tokenName, version: tokenVersion } } : "$0.02";
const auth = { Authorization: `Bearer ${apiKey}` };
const facilitator = new HTTPFacilitatorClient({
  url: `${botpay}/api/v1/x402/facilitator`,
  createAuthHeaders: async () => ({ verify: auth, settle: auth, supported: auth }),
});
const server = new x402ResourceServer(facilitator).register(network, new ServerScheme());
const app = express();
app.use(paymentMiddleware({
  "GET /weather": { accepts: { scheme: "exact", price, network, payTo }, description: "Today's weather" },
}, server));
app.get("/weather", (req, res) => res.json({ forecast: "sunny" }));
const listener = await new Promise((resolve) => { const l = app.listen(0, "127.0.0.1", () => resolve(l)); });
const url = `http://127.0.0.1:${listener.address().port}/weather`;

let paymentSignature = null;
const recordingFetch = (input, init) => {
  const request = input instanceof Request ? input : new Request(input, init);
  paymentSignature = request.headers.get("PAYMENT-SIGNATURE") ?? paymentSignature;
  return fetch(request);
};
const pay = wrapFetchWithPaymentFromConfig(recordingFetch, {
  schemes: [{ network, client: new ClientScheme(privateKeyToAccount(payerKey)) }],
  ...(asset ? { spendControls: { allowedAssets: true } } : {}),
});
try {
  const response = await pay(url, { method: "GET" });
  const header = response.headers.get("PAYMENT-RESPONSE");
  const text = await response.text();
  let body = text;
  try { body = JSON.parse(text); } catch {}
  console.log(JSON.stringify({ status: response.status, body, paymentResponse: header ? decodePaymentResponseHeader(header) : null, paymentSignature }));
} finally {
  listener.close();
}
