// Signs EIP-1559 transactions with viem, so botpay's own RLP and signing
// (internal/evm) can be compared byte for byte. Input (stdin): JSON
// [{"key": "0x…", "chainId": n, "nonce": n, "maxPriorityFeePerGas": "dec",
//   "maxFeePerGas": "dec", "gas": "dec", "to": "0x…" | null, "value": "dec", "data": "0x…"}].
// Output: JSON [{"raw": "0x…", "hash": "0x…"}].
import { keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const input = JSON.parse(await new Promise((resolve) => {
  let data = "";
  process.stdin.on("data", (c) => (data += c));
  process.stdin.on("end", () => resolve(data));
}));

const out = [];
for (const tx of input) {
  const account = privateKeyToAccount(tx.key);
  const raw = await account.signTransaction({
    type: "eip1559",
    chainId: tx.chainId,
    nonce: tx.nonce,
    maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas),
    maxFeePerGas: BigInt(tx.maxFeePerGas),
    gas: BigInt(tx.gas),
    to: tx.to ?? undefined,
    value: BigInt(tx.value),
    data: tx.data,
  });
  out.push({ raw, hash: keccak256(raw) });
}
process.stdout.write(JSON.stringify(out));
