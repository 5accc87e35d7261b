/**
 * What the fuzzers aim at: the whole product on loopback (test/helpers/stack.ts) with a sandbox
 * that finishes tasks at once and never runs out of credits, a loopback receiver for callbacks,
 * MCP clients of the default address and of the all-platforms address, a few real tasks to read,
 * and the crash signals: unhandled rejections, uncaught exceptions, error-level log lines and a
 * polluted Object.prototype.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createBackendClient } from "../../src/backend/index.js";
import { type Catalog, loadCatalog } from "../../src/catalog/index.js";
import { DEFAULTS, loadConfig } from "../../src/config.js";
import { createToolRegistry, type ToolRegistry } from "../../src/tools/index.js";
import { type Stack, startStack } from "../helpers/stack.js";
import type { Fixtures } from "./tool-cases.js";

const PINO_ERROR_LEVEL = 50;
const CALLS_PER_CLIENT = 500;
/** Typed tools read their task once instead of polling: thousands of calls stay fast. */
const FUZZ_WAIT = { defaultSeconds: 0, maxSeconds: DEFAULTS.waitMaxSeconds };

export interface FuzzTarget {
  stack: Stack;
  catalog: Catalog;
  /** The server's registry, rebuilt here to read tool schemas (same catalog, same config). */
  registry: ToolRegistry;
  /** Calls a tool at the address that lists it (`compact`: default, `typed`: all platforms). */
  callTool(address: "compact" | "typed", name: string, args: unknown): Promise<CallToolResult>;
  fixtures: Fixtures;
  /** `?platforms=...` values reaching typed tools, for the raw requests. */
  filters: string[];
  tasksCreated(): number;
  callbacksReceived(): number;
  /** Everything that counts as a crash since the start: one line each. */
  crashes(): string[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<{ server: Server; url: string; count: () => number }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/callbacks`, count: () => received };
}

function structured(result: unknown): Record<string, unknown> {
  const data = (result as CallToolResult).structuredContent;
  if (!data) throw new Error(`fixture call failed: ${JSON.stringify(result).slice(0, 300)}`);
  return data;
}

async function makeFixtures(client: Client, callbackUrl: string): Promise<Fixtures> {
  const run = async (query: string) =>
    structured(
      await client.callTool({
        name: "svc_execute",
        arguments: {
          endpoint: "social-network/pages",
          input: { query, results_limit: 30 },
          wait_seconds: 10,
        },
      }),
    );
  const succeeded = await run("fuzz fixtures");
  const failed = await run("sandbox:fail");
  const page = structured(
    await client.callTool({
      name: "svc_get_task",
      arguments: { task_id: succeeded.task_id, limit: 5 },
    }),
  );
  if (typeof page.next_cursor !== "string") throw new Error("fixture task has no second page");
  return {
    callbackUrl,
    taskIds: [String(succeeded.task_id), String(failed.task_id)],
    cursor: page.next_cursor,
  };
}

export async function startFuzzTarget(): Promise<FuzzTarget> {
  const crashes: string[] = [];
  const onRejection = (reason: unknown) => crashes.push(`unhandled rejection: ${String(reason)}`);
  const onException = (error: Error) => crashes.push(`uncaught exception: ${error.stack ?? error}`);
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);
  const receiver = await startReceiver();
  const stack = await startStack({
    sandbox: { queuedMs: 0, runningMs: 0, slowMs: 30, startingCredits: 1e12, callbackRetries: 0 },
    config: { wait: FUZZ_WAIT },
  });
  const catalog = loadCatalog();
  const config = { ...loadConfig({}), wait: FUZZ_WAIT };
  const unusedBackend = createBackendClient({ baseUrl: stack.sandbox.url, ...config.backend });
  const registry = createToolRegistry({ catalog, backend: unusedBackend, config });
  const allPlatforms = catalog.platforms.map((p) => p.platform).join(",");
  const queries = { compact: undefined, typed: { platforms: allPlatforms } };
  const clients = {
    compact: await stack.connect({ query: queries.compact }),
    typed: await stack.connect({ query: queries.typed }),
  };
  let calls = 0;
  const fixtures = await makeFixtures(clients.compact, receiver.url);
  const key = stack.keys[0] as string;
  let scanned = 0;
  const scanLogs = () => {
    for (; scanned < stack.logs.length; scanned += 1) {
      for (const line of (stack.logs[scanned] as string).split("\n")) {
        if (line.trim() === "") continue;
        if ((JSON.parse(line) as { level: number }).level < PINO_ERROR_LEVEL) continue;
        crashes.push(`error log: ${line.slice(0, 300)}`);
      }
    }
  };

  return {
    stack,
    catalog,
    registry,
    async callTool(address, name, args) {
      // The SDK client's fetch leaves an abort listener per request on the transport's signal
      // until GC; a fresh client now and then keeps that bounded over thousands of calls.
      calls += 1;
      if (calls % CALLS_PER_CLIENT === 0) {
        const previous = clients[address];
        clients[address] = await stack.connect({ query: queries[address] });
        await previous.close();
      }
      const result = await clients[address].callTool({
        name,
        arguments: args as Record<string, unknown>,
      });
      return result as CallToolResult;
    },
    fixtures,
    filters: [
      `?platforms=${allPlatforms}`,
      "?tools=social-network/pages,svc_video_network_search",
      "?readonly=true",
    ],
    tasksCreated: () => stack.sandbox.stats().tasksCreatedByKey[key] ?? 0,
    callbacksReceived: receiver.count,
    crashes() {
      scanLogs();
      const polluted = Object.keys(Object.prototype);
      return [
        ...crashes,
        ...(polluted.length > 0 ? [`Object.prototype polluted: ${polluted}`] : []),
      ];
    },
    async close() {
      await unusedBackend.close();
      await stack.close();
      await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
      process.off("unhandledRejection", onRejection);
      process.off("uncaughtException", onException);
    },
  };
}
