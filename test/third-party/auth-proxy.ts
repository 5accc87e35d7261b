/**
 * A loopback reverse proxy that adds `Authorization` to every request, for clients that cannot
 * send headers (the conformance suite). Everything else passes unchanged in both directions:
 * method, path, body, and the Host and Origin headers, so the server's own DNS-rebinding checks
 * see exactly what the client sent. It records the Host and Origin of each request it forwards.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface AuthProxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  forwarded: { host: string | undefined; origin: string | undefined }[];
  close(): Promise<void>;
}

export async function startAuthProxy(target: string, authorization: string): Promise<AuthProxy> {
  const upstream = new URL(target);
  const forwarded: AuthProxy["forwarded"] = [];
  const server = createServer((req, res) => {
    forwarded.push({ host: req.headers.host, origin: req.headers.origin });
    const outgoing = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        // The incoming Host is kept as sent (node uses a `host` header as given).
        headers: { ...req.headers, authorization },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    outgoing.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end('{"error":{"code":"proxy","message":"upstream unreachable"}}');
    });
    res.on("close", () => outgoing.destroy());
    req.pipe(outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
