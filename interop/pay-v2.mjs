// Pays an x402 resource with the stock x402 version 2 client (@x402/fetch)
// with only the v2 exact EVM scheme registered.
// Usage: node pay-v2.mjs <url> <private key 0x…> [payment identifier]
// With a payment identifier, the payload the client built carries it in
// extensions["payment-identifier"] (the signature does not cover
// extensions, so adding it after the client signed is what a client
// extension does).
// Output: JSON {"status", "body", "paymentResponse", "xPaymentResponse",
// "paymentSignature", "error"}; paymentSignature is the header the client
// sent (for replay tests), error the PAYMENT-REQUIRED error of a refusal.
import { x402Client, wrapFetchWithPayment, decodePaymentResponseHeader } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";

const [url, key, paymentId] = process.argv.slice(2);
// The test token of a local chain is no default asset of the client, and
// invoices cost more than its default $1 cap: allow any asset up to $20.
const client = new x402Client()
  .register("eip155:*", new ExactEvmScheme(privateKeyToAccount(key)))
  .setSpendControls({ maxAmountPerPayment: "$20", allowedAssets: true });

const decode = (header) => JSON.parse(Buffer.from(header, "base64").toString("utf8"));
const encode = (doc) => Buffer.from(JSON.stringify(doc), "utf8").toString("base64");

let paymentSignature = null;
const recordingFetch = (input, init) => {
  const request = new Request(input, init);
  const sent = request.headers.get("PAYMENT-SIGNATURE");
  if (sent && request.headers.get("X-PAYMENT")) throw new Error("the v2 client also sent X-PAYMENT");
  if (sent) {
    let header = sent;
    if (paymentId) {
      const payload = decode(sent);
      payload.extensions = { ...payload.extensions, "payment-identifier": { info: { required: false, id: paymentId } } };
      header = encode(payload);
      request.headers.set("PAYMENT-SIGNATURE", header);
    }
    paymentSignature = header;
  }
  return fetch(request);
};

const response = await wrapFetchWithPayment(recordingFetch, client)(url, { method: "GET" });
const settled = response.headers.get("payment-response");
const xSettled = response.headers.get("x-payment-response");
const required = response.headers.get("payment-required");
console.log(JSON.stringify({
  status: response.status,
  body: await response.json(),
  paymentResponse: settled ? decodePaymentResponseHeader(settled) : null,
  xPaymentResponse: xSettled ? decodePaymentResponseHeader(xSettled) : null,
  paymentSignature,
  error: required ? decode(required).error : null,
}));
