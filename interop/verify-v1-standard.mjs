// Reads x402 v1 X-PAYMENT headers as a stock v1 seller does: the x402
// package's decodePayment (its PaymentPayload schema), then the signature
// checked with viem's verifyTypedData against the requirement paid.
// Input (stdin): JSON [{"header": "<base64>", "requirement": {<v1 requirement>}}].
// Output: JSON [{"valid": bool, "decoded"?: object, "error"?: string}].
import { decodePayment } from "x402/schemes";
import { verifyTypedData, getAddress } from "viem";

const input = JSON.parse(await new Promise((resolve) => {
  let data = "";
  process.stdin.on("data", (c) => (data += c));
  process.stdin.on("end", () => resolve(data));
}));
const chainIds = { base: 8453, "base-sepolia": 84532 };
const types = {
  TransferWithAuthorization: [
    { name: "from", type: "address" }, { name: "to", type: "address" }, { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" }, { name: "validBefore", type: "uint256" }, { name: "nonce", type: "bytes32" },
  ],
};
const results = [];
for (const { header, requirement } of input) {
  try {
    const decoded = decodePayment(header);
    const auth = decoded.payload.authorization;
    const valid = decoded.x402Version === 1 && decoded.scheme === "exact" && decoded.network === requirement.network &&
      getAddress(auth.to) === getAddress(requirement.payTo) && auth.value === requirement.maxAmountRequired &&
      await verifyTypedData({
        address: auth.from, types, primaryType: "TransferWithAuthorization", signature: decoded.payload.signature,
        domain: { name: requirement.extra.name, version: requirement.extra.version, chainId: chainIds[requirement.network], verifyingContract: requirement.asset },
        message: { from: auth.from, to: auth.to, value: BigInt(auth.value), validAfter: BigInt(auth.validAfter), validBefore: BigInt(auth.validBefore), nonce: auth.nonce },
      });
    results.push({ valid, decoded });
  } catch (err) {
    results.push({ valid: false, error: String(err) });
  }
}
console.log(JSON.stringify(results));
