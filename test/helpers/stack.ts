/**
 * The whole product on loopback for integration tests: a sandbox (fast tasks) and the MCP server
 * in front of it, both on port 0, with every log line captured. Each stack uses fresh random keys;
 * the lines and keys are also written to this run's folder under .tmp/test-logs/ so that the
 * global teardown (test/helpers/log-scan.ts) can prove no key ever reached a log.
 */
import { randomBytes } from "node:crypto";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterEach, inject } from "vitest";
import { loadCatalog } from "../../src/catalog/index.js";
import { type Config, loadConfig } from "../../src/config.js";
import { type RunningServer, startServer } from "../../src/http/start.js";
import { createLogger, type Logger } from "../../src/log.js";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";

export interface StackOptions {
  /** Keys the sandbox accepts; default: two fresh random keys. */
  keys?: string[];
  /** Sandbox knobs; default: tasks finish in about 0.1 s. */
  sandbox?: Partial<SandboxOptions>;
  /** Overrides of the server's configuration (port, host and baseUrl are set by the stack). */
  config?: Partial<Config>;
}

export interface ConnectOptions {
  /** Default: the stack's first key. `null` sends no Authorization header. */
  key?: string | null;
  /** `"platforms=a,b"` or `{ platforms: "a,b" }`. */
  query?: string | Record<string, string | string[]>;
  headers?: Record<string, string>;
  /** Replaces the client's fetch (e.g. to send a chosen Host header). */
  fetch?: FetchLike;
}

export interface Stack {
  /** The MCP server's base address, e.g. `http://127.0.0.1:41234`. */
  baseUrl: string;
  mcpUrl: string;
  sandbox: RunningSandbox;
  server: RunningServer;
  keys: string[];
  /** `mcpUrl` with the query appended. */
  urlFor(query?: ConnectOptions["query"]): URL;
  connect(options?: ConnectOptions): Promise<Client>;
  /** Every log line (JSON) written by the server, the backend client and the sandbox. */
  logs: string[];
  close(): Promise<void>;
}

export function randomKey(label = "key"): string {
  return `test-${label}-${randomBytes(12).toString("hex")}`;
}

function queryString(query: ConnectOptions["query"]): string {
  if (query === undefined) return "";
  if (typeof query === "string") return query.replace(/^\?/, "");
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  }
  return params.toString();
}

/**
 * A log sink for the global key scan: `write` keeps each chunk in `logs` and appends it to a file
 * under .tmp/test-logs/, beside the keys that must never appear in it.
 */
export function logSink(keys: readonly string[]): { write(text: string): void; logs: string[] } {
  const dir = inject("testLogDir");
  const id = `${process.pid}-${randomBytes(6).toString("hex")}`;
  const file = join(dir, `${id}.log`);
  writeFileSync(join(dir, `${id}.keys`), `${keys.join("\n")}\n`);
  writeFileSync(file, "");
  const logs: string[] = [];
  return {
    logs,
    write(text: string) {
      logs.push(text);
      appendFileSync(file, text);
    },
  };
}

/** A logger whose lines go to `logs` and to a file the global teardown scans. */
export function capturedLogger(keys: readonly string[]): { logger: Logger; logs: string[] } {
  const sink = logSink(keys);
  return { logger: createLogger("debug", sink), logs: sink.logs };
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const keys = options.keys ?? [randomKey("alpha"), randomKey("beta")];
  const { logger, logs } = capturedLogger(keys);
  const catalog = loadCatalog();
  const sandbox = await startSandbox({
    catalog,
    keys,
    queuedMs: 20,
    runningMs: 80,
    slowMs: 2_000,
    ...options.sandbox,
    logger: logger.child({ component: "sandbox" }),
  });
  const config: Config = {
    ...loadConfig({}),
    shutdownGraceMs: 1_000,
    ...options.config,
    port: 0,
    host: "127.0.0.1",
    baseUrl: sandbox.url,
  };
  let server: RunningServer;
  try {
    server = await startServer(config, logger);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const clients = new Set<Client>();
  const urlFor = (query?: ConnectOptions["query"]) => {
    const search = queryString(query);
    return new URL(search ? `${server.mcpUrl}?${search}` : server.mcpUrl);
  };

  return {
    baseUrl: server.url,
    mcpUrl: server.mcpUrl,
    sandbox,
    server,
    keys,
    urlFor,
    logs,
    async connect(connectOptions = {}) {
      const key = connectOptions.key === undefined ? keys[0] : connectOptions.key;
      const headers: Record<string, string> = { ...connectOptions.headers };
      if (key !== null && key !== undefined) headers.Authorization = `Bearer ${key}`;
      const transport = new StreamableHTTPClientTransport(urlFor(connectOptions.query), {
        requestInit: { headers },
        ...(connectOptions.fetch ? { fetch: connectOptions.fetch } : {}),
      });
      const client = new Client({ name: "svc-mcp-test", version: "0.0.0" });
      await client.connect(transport);
      clients.add(client);
      return client;
    },
    async close() {
      await Promise.allSettled([...clients].map((client) => client.close()));
      await server.close();
      await sandbox.close();
    },
  };
}

/** For a test file: a `startStack` whose stacks are all closed after each test. */
export function stacksPerTest(): (options?: StackOptions) => Promise<Stack> {
  let stacks: Stack[] = [];
  afterEach(async () => {
    await Promise.all(stacks.map((stack) => stack.close()));
    stacks = [];
  });
  return async (options) => {
    const stack = await startStack(options);
    stacks.push(stack);
    return stack;
  };
}
