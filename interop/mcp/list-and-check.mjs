// An independent MCP client: the official TypeScript SDK connects to
// botpay's MCP server, lists the tools and calls check_wallet. The SDK
// validates each structured answer against the tool's output schema.
//
//   node list-and-check.mjs http  <service URL>     (streamable HTTP, /mcp)
//   node list-and-check.mjs stdio <botpay binary>   (spawns `botpay mcp`)
//
// BOTPAY_API_KEY (and BOTPAY_URL for stdio) come from the environment. It
// prints one JSON object: {tools: [{name, readOnly, destructive, hasOutputSchema}],
// check_wallet, validated}.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [mode, target] = process.argv.slice(2);
const key = process.env.BOTPAY_API_KEY;
if (!target || !key) {
  console.error("usage: BOTPAY_API_KEY=... node list-and-check.mjs http|stdio <url|binary>");
  process.exit(2);
}

function transport() {
  if (mode === "http") {
    return new StreamableHTTPClientTransport(new URL("/mcp", target), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
  }
  return new StdioClientTransport({
    command: target,
    args: ["mcp"],
    env: { PATH: process.env.PATH ?? "", BOTPAY_URL: process.env.BOTPAY_URL ?? "", BOTPAY_API_KEY: key },
    stderr: "inherit",
  });
}

const client = new Client({ name: "botpay-interop", version: "1.0.0" });
await client.connect(transport());
const { tools } = await client.listTools();
const wallet = await client.callTool({ name: "check_wallet", arguments: {} });
// More read-only answers, each checked against its output schema by the SDK.
const validated = [];
for (const name of ["get_status", "search_vendors", "list_messages"]) {
  const res = await client.callTool({ name, arguments: {} });
  if (res.isError) throw new Error(`${name}: ${JSON.stringify(res.content)}`);
  validated.push(name);
}
console.log(JSON.stringify({
  tools: tools.map((t) => ({
    name: t.name,
    readOnly: t.annotations?.readOnlyHint ?? false,
    destructive: t.annotations?.destructiveHint ?? null,
    hasOutputSchema: Boolean(t.outputSchema),
  })),
  check_wallet: wallet,
  validated,
}));
await client.close();
