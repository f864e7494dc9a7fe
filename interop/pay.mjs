// Pays an x402 resource with the stock x402-fetch client.
// Usage: node pay.mjs <url> <private key 0x…> [network, default base]
// Output: JSON {"status", "body", "paymentResponse", "xPayment"}; xPayment
// is the X-PAYMENT header the client sent (for replay tests).
import { wrapFetchWithPayment, createSigner, decodeXPaymentResponse } from "x402-fetch";

const [url, key, network = "base"] = process.argv.slice(2);
const signer = await createSigner(network, key);
let xPayment = null;
const recordingFetch = (input, init) => {
  const headers = init?.headers;
  const sent = headers instanceof Headers ? headers.get("X-PAYMENT") : headers?.["X-PAYMENT"];
  if (sent) xPayment = sent;
  return fetch(input, init);
};
const pay = wrapFetchWithPayment(recordingFetch, signer, BigInt(10 * 10 ** 6));
const response = await pay(url, { method: "GET" });
const header = response.headers.get("x-payment-response");
console.log(JSON.stringify({
  status: response.status,
  body: await response.json(),
  paymentResponse: header ? decodeXPaymentResponse(header) : null,
  xPayment,
}));
