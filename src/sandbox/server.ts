/** `startSandbox`: the sandbox app listening on a port (127.0.0.1, port 0 unless told). */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createSandboxApp, type SandboxAppOptions, type SandboxStats } from "./app.js";

export interface StartSandboxOptions extends SandboxAppOptions {
  port?: number;
  host?: string;
}

export interface RunningSandbox {
  /** `http://host:port`, no trailing slash. */
  url: string;
  keys: string[];
  stats(): SandboxStats;
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startSandbox(options: StartSandboxOptions): Promise<RunningSandbox> {
  const { port = 0, host = "127.0.0.1", ...appOptions } = options;
  const sandbox = createSandboxApp(appOptions);
  const server = createServer(sandbox.app);
  server.keepAliveTimeout = 5_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${address.port}`,
    keys: [...sandbox.options.keys],
    stats: sandbox.stats,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await sandbox.close();
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
