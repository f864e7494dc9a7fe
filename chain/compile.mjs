// Compiles contracts/TestToken.sol with the pinned solc and prints
// {"abi": [...], "bytecode": "0x..."} on stdout. Used by botpay's chain tests.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import solc from "solc";

const here = path.dirname(fileURLToPath(import.meta.url));
const file = "TestToken.sol";
const input = {
  language: "Solidity",
  sources: { [file]: { content: fs.readFileSync(path.join(here, "contracts", file), "utf8") } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "cancun",
    outputSelection: { "*": { TestToken: ["abi", "evm.bytecode.object"] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors || []).filter((e) => e.severity === "error");
if (errors.length > 0) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const c = output.contracts[file].TestToken;
process.stdout.write(JSON.stringify({ abi: c.abi, bytecode: "0x" + c.evm.bytecode.object }));
