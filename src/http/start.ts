/**
 * `svc serve` / `npm start`: the MCP app listening on `config.host:config.port`, forwarding to
 * `config.baseUrl` or, when it is unset, to an embedded sandbox (announced with its key).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import { openRuntime, type RuntimeOptions } from "../mcp/runtime.js";
import { createMetrics } from "../metrics/index.js";
import { DEFAULT_SANDBOX_KEY } from "../sandbox/index.js";
import { createApp } from "./app.js";

export interface RunningServer {
  /** `http://host:port`, no trailing slash. */
  url: string;
  mcpUrl: string;
  /** Stops accepting, lets in-flight waits answer, closes the backend pool (and the sandbox). */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

export async function startServer(
  config: Config,
  logger: Logger,
  options: RuntimeOptions = {},
): Promise<RunningServer> {
  const metrics = createMetrics();
  const runtime = await openRuntime(config, logger, {
    ...options,
    onBackendExchange: metrics.observeBackendExchange,
  });
  if (runtime.sandbox) {
    // Only the public default key is printed; keys set through SVC_SANDBOX_KEYS never reach a log.
    const connectWith = runtime.sandbox.keys.includes(DEFAULT_SANDBOX_KEY)
      ? `"Authorization: Bearer ${DEFAULT_SANDBOX_KEY}"`
      : "one of the keys set in SVC_SANDBOX_KEYS";
    logger.info(
      { sandboxUrl: runtime.sandbox.url },
      `SVC_BASE_URL is unset: tools call an embedded sandbox. Connect with ${connectWith}`,
    );
  } else {
    logger.info({ baseUrl: runtime.baseUrl }, "tools call the REST backend");
  }
  const mcp = createApp({ ...runtime, config, logger, metrics });
  const server = createServer(mcp.app);
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port, config.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await runtime.close();
    metrics.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(config.host)}:${port}`;
  logger.info({ url, mcp: `${url}/mcp` }, "svc-mcp listening");

  let closing: Promise<void> | undefined;
  return {
    url,
    mcpUrl: `${url}/mcp`,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await mcp.close();
        server.closeAllConnections();
        await stopped;
        await runtime.close();
        metrics.close();
        logger.info("svc-mcp stopped");
      })();
      return closing;
    },
  };
}
