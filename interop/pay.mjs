// Pays an x402 resource with the stock x402-fetch client.
// Usage: node pay.mjs <url> <private key 0x…>
// Output: JSON {"status", "body", "paymentResponse"}.
import { wrapFetchWithPayment, createSigner, decodeXPaymentResponse } from "x402-fetch";

const [url, key] = process.argv.slice(2);
const signer = await createSigner("base", key);
const pay = wrapFetchWithPayment(fetch, signer, BigInt(10 * 10 ** 6));
const response = await pay(url, { method: "GET" });
const header = response.headers.get("x-payment-response");
console.log(JSON.stringify({
  status: response.status,
  body: await response.json(),
  paymentResponse: header ? decodeXPaymentResponse(header) : null,
}));
