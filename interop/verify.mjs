// Verifies X-PAYMENT headers from botpay's sign endpoint with viem's
// verifyTypedData. Input (stdin): JSON [{"address": "0x…", "header": "<base64>"}].
// Output: JSON [{"valid": bool, ...}]; exit status 1 unless all are valid.
import { verifyTypedData } from "viem";

const input = JSON.parse(await new Promise((resolve) => {
  let data = "";
  process.stdin.on("data", (c) => (data += c));
  process.stdin.on("end", () => resolve(data));
}));

const types = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
};

const results = [];
for (const { address, header } of input) {
  const doc = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  const auth = doc.payload.authorization;
  const domain = { name: "USD Coin", version: "2", chainId: doc.chainId, verifyingContract: doc.token };
  const message = {
    from: auth.from, to: auth.to, value: BigInt(auth.value),
    validAfter: BigInt(auth.validAfter), validBefore: BigInt(auth.validBefore), nonce: auth.nonce,
  };
  const nested = await verifyTypedData({ address, domain, types, primaryType: "TransferWithAuthorization", message, signature: doc.payload.signature });
  const flat = await verifyTypedData({
    address, domain, types, primaryType: "TransferWithAuthorization",
    message: { from: doc.from, to: doc.to, value: BigInt(doc.value), validAfter: BigInt(doc.validAfter), validBefore: BigInt(doc.validBefore), nonce: doc.nonce },
    signature: doc.signature,
  });
  results.push({ valid: nested && flat, nested, flat });
}
console.log(JSON.stringify(results));
process.exit(results.every((r) => r.valid) ? 0 : 1);
