/**
 * The server under load and in trouble: concurrent clients, a backend that goes away, and a tool
 * call's signal firing on MCP cancellation, on a closed connection and on shutdown.
 */
import { describe, expect, it } from "vitest";
import { MCP_HEADERS } from "../helpers/http.js";
import { type Stack, stacksPerTest } from "../helpers/stack.js";

const SLOW_SUBMIT = {
  name: "svc_execute",
  arguments: {
    endpoint: "social-network-ad-library/company-search",
    input: { query: "sandbox:slow" },
    wait_seconds: 45,
  },
};

const stackWith = stacksPerTest();

/** Waits (at most `timeoutMs`, polling) for a request log line that matches. */
async function logLine(
  stack: Stack,
  match: (line: Record<string, unknown>) => boolean,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const raw of stack.logs) {
      const line = JSON.parse(raw) as Record<string, unknown>;
      if (line.msg === "mcp request" && match(line)) return line;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("no matching log line in time");
}

describe("concurrency", () => {
  it("serves 20 concurrent clients, each with its own tasks", async () => {
    const stack = await stackWith();
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const key = stack.keys[i % 2] as string;
        const client = await stack.connect({ key });
        const { tools } = await client.listTools();
        const run = await client.callTool({
          name: "svc_execute",
          arguments: {
            endpoint: "social-network-marketplace/location-search",
            input: { query: `city ${i}` },
            wait_seconds: 10,
            result_limit: 3,
          },
        });
        const task = run.structuredContent as { task_id: string; status: string; items: unknown[] };
        const read = await client.callTool({
          name: "svc_get_task",
          arguments: { task_id: task.task_id },
        });
        return { key, tools: tools.length, task, read };
      }),
    );
    for (const { tools, task, read } of results) {
      expect(tools).toBe(7);
      expect(task.status).toBe("succeeded");
      expect(task.items).toHaveLength(3);
      expect(read.isError).toBeFalsy();
    }
    expect(new Set(results.map((r) => r.task.task_id)).size).toBe(20);

    // A task belongs to its key: the other key cannot read it.
    const [first] = results;
    const other = await stack.connect({
      key: stack.keys[1] === first?.key ? stack.keys[0] : stack.keys[1],
    });
    const foreign = await other.callTool({
      name: "svc_get_task",
      arguments: { task_id: first?.task.task_id },
    });
    expect(foreign.isError).toBe(true);
  });
});

describe("backend down", () => {
  it("answers tool calls with a clear isError and stays healthy but not ready", async () => {
    const stack = await stackWith();
    const client = await stack.connect();
    await stack.sandbox.close();

    const result = await client.callTool({
      name: "svc_get_task",
      arguments: { task_id: "tsk_gone" },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
    expect(text).toMatch(/reach|connect|unavailable/i);

    // A new client still connects (the key cannot be checked, the backend will check it).
    const late = await stack.connect();
    expect((await late.callTool({ name: "svc_account", arguments: {} })).isError).toBe(true);

    expect((await fetch(`${stack.baseUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${stack.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: "not_ready",
      backend: { reachable: false },
    });
  });
});

describe("a tool call's signal", () => {
  it("fires on notifications/cancelled sent from the client", async () => {
    const stack = await stackWith({ sandbox: { slowMs: 60_000 } });
    const client = await stack.connect();
    const controller = new AbortController();
    const call = client.callTool(SLOW_SUBMIT, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort("changed my mind"),
      timeout: 60_000,
    });
    await expect(call).rejects.toThrow(/changed my mind|abort/i);
    const line = await logLine(stack, (l) => l.tool === "svc_execute");
    expect(line.outcome).toBe("cancelled");
  });

  it("fires when the client closes the connection", async () => {
    const stack = await stackWith({ sandbox: { slowMs: 60_000 } });
    const controller = new AbortController();
    const response = await fetch(stack.mcpUrl, {
      method: "POST",
      headers: { ...MCP_HEADERS, Authorization: `Bearer ${stack.keys[0]}` },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 41,
        method: "tools/call",
        params: { ...SLOW_SUBMIT, _meta: { progressToken: "p41" } },
      }),
      signal: controller.signal,
    });
    expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toMatch(/notifications\/progress/);
    controller.abort();

    const line = await logLine(stack, (l) => l.rpcId === 41);
    expect(line).toMatchObject({ outcome: "cancelled", clientClosed: true });
  });

  it("fires on shutdown, and the tool answers with the task's current status", async () => {
    const stack = await stackWith({
      sandbox: { slowMs: 60_000 },
      config: { shutdownGraceMs: 10_000 },
    });
    const client = await stack.connect();
    let closing: Promise<void> | undefined;
    const result = await client.callTool(SLOW_SUBMIT, undefined, {
      onprogress: () => {
        closing ??= stack.server.close();
      },
      timeout: 60_000,
    });
    expect(result.isError).toBeFalsy();
    const task = result.structuredContent as { task_id: string; status: string };
    expect(["queued", "running"]).toContain(task.status);
    await closing;
    await expect(fetch(`${stack.baseUrl}/healthz`)).rejects.toThrow();
  });
});
