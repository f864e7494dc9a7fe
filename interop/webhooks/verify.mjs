// Verifies botpay deliveries with the stock Standard Webhooks library.
// stdin: {"secret": "...", "deliveries": [{"headers": {...}, "body": "..."}]}
// stdout: [{"valid": true|false, "error": "..."}] in the same order.
import { Webhook } from "standardwebhooks";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { secret, deliveries } = JSON.parse(input);
const wh = new Webhook(secret);
const results = deliveries.map(({ headers, body }) => {
  try {
    wh.verify(body, headers);
    return { valid: true };
  } catch (err) {
    return { valid: false, error: String(err && err.message ? err.message : err) };
  }
});
process.stdout.write(JSON.stringify(results));
