// A forwarding proxy in front of the real service that can lose an answer:
// the request reaches the service and is served, but the client's
// connection is cut before the answer arrives, as on a flaky network.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Forwarded {
  method: string;
  path: string;
  key: string | undefined;
}

export async function proxy(target: string, opts: { dropFirstAnswerOf: string }) {
  const forwarded: Forwarded[] = [];
  let dropped = false;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string" && name !== "host" && name !== "connection") headers.set(name, value);
    }
    const method = req.method ?? "GET";
    forwarded.push({ method, path: req.url ?? "", key: headers.get("idempotency-key") ?? undefined });
    const answer = await fetch(target + (req.url ?? ""), { method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const body = Buffer.from(await answer.arrayBuffer());
    if (!dropped && method === opts.dropFirstAnswerOf) {
      dropped = true;
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
