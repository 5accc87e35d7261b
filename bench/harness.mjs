// Pieces every benchmark shares: the machine line, percentiles, the measured processes
// (bench/child.mjs, forked and driven over IPC), autocannon load phases, and a raw MCP client
// (one undici Agent; each tool call is one stateless POST /mcp, its SSE answer read to the end).
import { fork } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { Agent, request } from "undici";
import { UNCOUNTED } from "./probes.mjs";

export { lagMonitor, UNCOUNTED } from "./probes.mjs";

export const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
};

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function machine() {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const gib = (totalmem() / 2 ** 30).toFixed(1);
  return `machine: ${cpu} x${cpus().length}, ${gib} GiB, Node ${process.version}`;
}

export const today = () => new Date().toISOString().slice(0, 10);

/** `sorted` ascending; nearest-rank percentile. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export function median(values) {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);

const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill();
});

/**
 * Forks bench/child.mjs in `role` and resolves once it listens: `{url, key, ask, close}`.
 * `ask(type, extra)` sends one IPC message and resolves with the child's answer of that type.
 */
export function startChild(role, args = [], { execArgv = [] } = {}) {
  const child = fork(new URL("./child.mjs", import.meta.url), [role, ...args], { execArgv });
  children.add(child);
  child.once("exit", () => children.delete(child));
  const ask = (type, extra = {}) =>
    new Promise((resolve) => {
      const onMessage = (message) => {
        if (message.type !== type) return;
        child.off("message", onMessage);
        resolve(message);
      };
      child.on("message", onMessage);
      child.send({ ...extra, type });
    });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${role} child exited early (${code})`)));
    child.once("message", (ready) => {
      const close = () =>
        new Promise((done) => {
          child.once("exit", done);
          child.send({ type: "close" });
        });
      resolve({ url: ready.url, key: ready.key, pid: child.pid, ask, close });
    });
  });
}

/** Sandbox knobs for benchmarks: no rate limit, credits that never run out. */
export function sandboxKnobs(overrides = {}) {
  return JSON.stringify({
    startingCredits: 1e12,
    rateLimit: 0,
    maxTasks: 10_000_000,
    ...overrides,
  });
}

/** One autocannon phase; any failed request fails the benchmark. */
export async function load(url, options) {
  const { default: autocannon } = await import("autocannon");
  const result = await autocannon({ url, ...options });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${url}: ${failures} failed requests`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerRequest: result.throughput.average / result.requests.average,
  };
}

export const rpcBody = (method, params, id = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

/** The JSON-RPC message of an answer sent as JSON or as SSE `message` events. */
export function rpcMessage(body, contentType = "") {
  if (!contentType.includes("text/event-stream")) return JSON.parse(body);
  const messages = body
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)));
  return messages.find((message) => "result" in message || "error" in message);
}

/**
 * A raw MCP client over one undici Agent with `connections` sockets at most: a stateless server
 * needs no `initialize` before a `tools/call`, so each call is exactly one POST.
 */
export function createMcpClient(mcpUrl, key, { connections = 64 } = {}) {
  const dispatcher = new Agent({ connections, keepAliveTimeout: 30_000, pipelining: 1 });
  const headers = { ...MCP_HEADERS, authorization: `Bearer ${key}` };
  let nextId = 1;

  async function rpc(method, params) {
    const id = nextId++;
    const response = await request(mcpUrl, {
      dispatcher,
      method: "POST",
      headers,
      body: rpcBody(method, params, id),
    });
    const body = await response.body.text();
    if (response.statusCode !== 200) {
      throw new Error(`${method}: HTTP ${response.statusCode} ${body.slice(0, 200)}`);
    }
    const message = rpcMessage(body, String(response.headers["content-type"] ?? ""));
    if (!message || message.error) {
      throw new Error(`${method}: ${JSON.stringify(message?.error ?? body.slice(0, 200))}`);
    }
    return message.result;
  }

  return {
    rpc,
    /** The tool's `structuredContent`; a result with `isError` throws. */
    async callTool(name, args) {
      const result = await rpc("tools/call", { name, arguments: args });
      if (result.isError) throw new Error(`${name}: ${result.content?.[0]?.text}`);
      return result.structuredContent;
    },
    close: () => dispatcher.close(),
  };
}

/** A REST call to the sandbox, left out of its read counts. */
export async function rest(sandbox, method, path, body) {
  const response = await request(`${sandbox.url}${path}`, {
    method,
    headers: {
      ...UNCOUNTED,
      authorization: `Bearer ${sandbox.key}`,
      "content-type": "application/json",
    },
    body,
  });
  const text = await response.body.text();
  if (response.statusCode >= 300) throw new Error(`${method} ${path}: HTTP ${response.statusCode}`);
  return JSON.parse(text);
}
