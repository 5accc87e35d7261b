/**
 * The product with a fault proxy between the MCP server and the sandbox: SDK client -> server
 * (short backend timeouts, set through the SVC_* variables) -> fault proxy -> sandbox, all on
 * loopback port 0. While it runs, /healthz is polled so a test can prove it stayed green.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadCatalog } from "../../src/catalog/index.js";
import { loadConfig } from "../../src/config.js";
import { type RunningServer, startServer } from "../../src/http/start.js";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
import { type FaultProxy, startFaultProxy } from "../helpers/fault-proxy.js";
import { capturedLogger, randomKey } from "../helpers/stack.js";

/** Backend timeouts short enough that a hanging backend ends a test quickly. */
export const FAULT_ENV = {
  SVC_CONNECT_TIMEOUT_MS: "500",
  SVC_HEADERS_TIMEOUT_MS: "800",
  SVC_BODY_TIMEOUT_MS: "800",
  SVC_SHUTDOWN_GRACE_MS: "5000",
  SVC_AUTH_CACHE_SECONDS: "300",
};

const HEALTH_EVERY_MS = 50;

export interface FaultStackOptions {
  sandbox?: Partial<SandboxOptions>;
  /** Extra SVC_* variables, over FAULT_ENV. */
  env?: Record<string, string>;
}

export interface HealthRecord {
  checks: number;
  /** Status codes (or error messages) of the checks that were not 200. */
  failures: string[];
}

export interface FaultStack {
  baseUrl: string;
  key: string;
  proxy: FaultProxy;
  sandbox: RunningSandbox;
  server: RunningServer;
  /** Every log line of the server, the backend client and the sandbox. */
  logs: string[];
  /** An SDK client over Streamable HTTP, authenticated with the stack's key; `query` selects tools. */
  connect(query?: string): Promise<Client>;
  tasksCreated(): number;
  /** Stops polling /healthz and returns what it saw. */
  stopHealthWatch(): Promise<HealthRecord>;
  close(): Promise<void>;
}

export async function startFaultStack(options: FaultStackOptions = {}): Promise<FaultStack> {
  const key = randomKey("faults");
  const { logger, logs } = capturedLogger([key]);
  const sandbox = await startSandbox({
    catalog: loadCatalog(),
    keys: [key],
    queuedMs: 20,
    runningMs: 80,
    ...options.sandbox,
    logger: logger.child({ component: "sandbox" }),
  });
  const proxy = await startFaultProxy(sandbox.url);
  const config = {
    ...loadConfig({ ...FAULT_ENV, ...options.env, SVC_BASE_URL: proxy.url }),
    port: 0,
  };
  const server = await startServer(config, logger);
  const clients: Client[] = [];

  const health: HealthRecord = { checks: 0, failures: [] };
  let watching = true;
  const watch = (async () => {
    while (watching) {
      try {
        const res = await fetch(`${server.url}/healthz`);
        if (res.status !== 200) health.failures.push(String(res.status));
        await res.body?.cancel();
      } catch (error) {
        health.failures.push((error as Error).message);
      }
      health.checks += 1;
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
    }
  })();
  const stopHealthWatch = async () => {
    watching = false;
    await watch;
    return health;
  };

  return {
    baseUrl: server.url,
    key,
    proxy,
    sandbox,
    server,
    logs,
    async connect(query) {
      const url = new URL(server.mcpUrl);
      url.search = query ?? "";
      const transport = new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      });
      const client = new Client({ name: "svc-mcp-faults", version: "0.0.0" });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    tasksCreated: () => sandbox.stats().tasksCreated,
    stopHealthWatch,
    async close() {
      await stopHealthWatch();
      await Promise.allSettled(clients.map((client) => client.close()));
      await server.close();
      await proxy.close();
      await sandbox.close();
    },
  };
}

/** An svc_execute call on a cheap endpoint (`company-search`) for `query`. */
export function executeCall(query: string, waitSeconds = 10) {
  return {
    name: "svc_execute",
    arguments: {
      endpoint: "social-network-ad-library/company-search",
      input: { query },
      wait_seconds: waitSeconds,
      result_limit: 3,
    },
  };
}

/** Log lines at level error or above (pino: 50+). */
export function errorLines(logs: readonly string[]): Record<string, unknown>[] {
  return logs
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => typeof line.level === "number" && line.level >= 50);
}
