/**
 * GET /metrics of a running server, after real traffic from the SDK client: MCP requests by
 * method, tool and outcome, backend exchanges by route template and status, the in-flight gauge,
 * the process metrics — and no key, key hash, task id or client text in any of it.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashKey } from "../../src/http/auth.js";
import { executeCall } from "../faults/fault-stack.js";
import { post } from "../helpers/http.js";
import { stacksPerTest } from "../helpers/stack.js";
import { sampleValue, scrape } from "./exposition.js";

const stackWith = stacksPerTest();

const SUBMIT = executeCall("lisbon", 10);

const call = (tool: string, outcome: string) => ({ method: "tools/call", tool, outcome });

describe("GET /metrics", () => {
  it("counts MCP requests by method, tool and outcome and backend exchanges by route and status", async () => {
    const stack = await stackWith();
    const client = await stack.connect();
    const secretWord = `free-text-${randomBytes(6).toString("hex")}`;
    const missingTask = `tsk_${randomBytes(8).toString("hex")}`;

    await client.listTools();
    const run = await client.callTool(SUBMIT);
    expect(run.isError).toBeFalsy();
    const taskId = (run.structuredContent as { task_id: string }).task_id;
    const invalid = await client.callTool({
      ...SUBMIT,
      arguments: { ...SUBMIT.arguments, input: { query: secretWord, extra: 1 } },
    });
    expect(invalid.isError).toBe(true);
    const unknownTool = `svc_${secretWord.replaceAll("-", "_")}`;
    await expect(client.callTool({ name: unknownTool, arguments: {} })).rejects.toThrow(
      /Unknown tool/,
    );
    const missing = await client.callTool({
      name: "svc_get_task",
      arguments: { task_id: missingTask },
    });
    expect(missing.isError).toBe(true);
    // Refused at the door: no key; a key in the URL; a method MCP does not define.
    expect(
      (await post(stack.mcpUrl, { body: { jsonrpc: "2.0", id: 1, method: "ping" } })).status,
    ).toBe(401);
    const keyInUrl = new URL(stack.mcpUrl);
    keyInUrl.searchParams.set("api_key", stack.keys[1] as string);
    expect((await post(keyInUrl, { body: { jsonrpc: "2.0", id: 2, method: "ping" } })).status).toBe(
      400,
    );
    await post(stack.mcpUrl, {
      key: stack.keys[0],
      body: { jsonrpc: "2.0", id: 3, method: `x/${secretWord}` },
    });

    const { text, samples } = await scrape(stack.baseUrl);
    const requests = (labels: Record<string, string>) =>
      sampleValue(samples, "svc_mcp_requests_total", labels);
    expect(requests({ method: "initialize", tool: "", outcome: "ok" })).toBe(1);
    expect(requests({ method: "tools/list", tool: "", outcome: "ok" })).toBe(1);
    expect(requests(call("svc_execute", "ok"))).toBe(1);
    expect(requests(call("svc_execute", "tool_error"))).toBe(1);
    expect(requests(call("svc_get_task", "tool_error"))).toBe(1);
    expect(requests(call("unknown", "unknown_tool"))).toBe(1);
    expect(requests({ method: "none", tool: "", outcome: "missing_key" })).toBe(1);
    expect(requests({ method: "none", tool: "", outcome: "key_in_url" })).toBe(1);
    expect(requests({ method: "other", tool: "", outcome: "ok" })).toBe(1);

    const seconds = (suffix: string, labels: Record<string, string>) =>
      sampleValue(samples, `svc_mcp_request_duration_seconds_${suffix}`, labels);
    const executed = call("svc_execute", "ok");
    expect(seconds("count", executed)).toBe(1);
    expect(seconds("bucket", { ...executed, le: "+Inf" })).toBe(1);
    expect(seconds("sum", executed)).toBeGreaterThan(0);

    // Backend: one submit (the invalid input never left the server), the key checked once at
    // initialize, task reads (the wait's, and the 404 of the task that does not exist).
    const backend = (route: string, method: string, status: string) =>
      sampleValue(samples, "svc_mcp_backend_requests_total", { route, method, status });
    expect(backend("/v1/{platform}/{resource}", "POST", "202")).toBe(1);
    expect(backend("/v1/account", "GET", "200")).toBe(1);
    expect(backend("/v1/tasks/{task_id}", "GET", "200")).toBeGreaterThanOrEqual(1);
    expect(backend("/v1/tasks/{task_id}", "GET", "404")).toBe(1);
    expect(
      sampleValue(samples, "svc_mcp_backend_request_duration_seconds_count", {
        route: "/v1/{platform}/{resource}",
        method: "POST",
        status: "202",
      }),
    ).toBe(1);

    expect(sampleValue(samples, "svc_mcp_inflight_requests")).toBe(0);
    expect(sampleValue(samples, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sampleValue(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);

    for (const secret of [...stack.keys, ...stack.keys.map(hashKey), taskId, missingTask]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain(secretWord);
    expect(text).not.toContain(secretWord.replaceAll("-", "_"));
  });

  it("counts the backend's failures by their code when no answer comes back", async () => {
    const stack = await stackWith();
    const client = await stack.connect();
    await stack.sandbox.close();
    const result = await client.callTool({ name: "svc_get_task", arguments: { task_id: "tsk_1" } });
    expect(result.isError).toBe(true);

    const { samples } = await scrape(stack.baseUrl);
    expect(
      sampleValue(samples, "svc_mcp_backend_requests_total", {
        route: "/v1/tasks/{task_id}",
        method: "GET",
        status: "connection_error",
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, "svc_mcp_requests_total", call("svc_get_task", "tool_error"))).toBe(
      1,
    );
  });

  it("shows a wait in flight in the gauge, and its cancellation in the outcome", async () => {
    const stack = await stackWith({ sandbox: { slowMs: 60_000 } });
    const client = await stack.connect();
    const controller = new AbortController();
    let during: ReturnType<typeof scrape> | undefined;
    const waiting = client.callTool(executeCall("sandbox:slow", 45), undefined, {
      signal: controller.signal,
      timeout: 60_000,
      onprogress: () => {
        during ??= scrape(stack.baseUrl).finally(() => controller.abort("seen"));
      },
    });
    await expect(waiting).rejects.toThrow();
    expect(during).toBeDefined();
    const { samples: whileWaiting } = await (during as ReturnType<typeof scrape>);
    expect(sampleValue(whileWaiting, "svc_mcp_inflight_requests")).toBe(1);

    // The cancelled call is counted once its handler has ended.
    for (let poll = 0; poll < 100; poll++) {
      const { samples } = await scrape(stack.baseUrl);
      const cancelled = sampleValue(
        samples,
        "svc_mcp_requests_total",
        call("svc_execute", "cancelled"),
      );
      if (cancelled !== undefined) {
        expect(cancelled).toBe(1);
        expect(sampleValue(samples, "svc_mcp_inflight_requests")).toBe(0);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("the cancelled call was not counted in time");
  });

  it("keeps each server's metrics apart (one registry per server, several in one process)", async () => {
    const busy = await stackWith();
    const idle = await stackWith();
    await (await busy.connect()).callTool(SUBMIT);

    const busySamples = (await scrape(busy.baseUrl)).samples;
    const idleSamples = (await scrape(idle.baseUrl)).samples;
    expect(sampleValue(busySamples, "svc_mcp_requests_total", call("svc_execute", "ok"))).toBe(1);
    expect(
      sampleValue(idleSamples, "svc_mcp_requests_total", call("svc_execute", "ok")),
    ).toBeUndefined();
    expect(idleSamples.filter((s) => s.name === "svc_mcp_backend_requests_total")).toEqual([]);
    // The process's metrics appear in both.
    expect(sampleValue(idleSamples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
  });

  it("asks for SVC_METRICS_TOKEN as a bearer token when it is set", async () => {
    const token = `metrics-${randomBytes(12).toString("hex")}`;
    const stack = await stackWith({ config: { metricsToken: token } });
    const url = `${stack.baseUrl}/metrics`;

    const none = await fetch(url);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const wrong = await fetch(url, { headers: { Authorization: `Bearer ${token}x` } });
    expect(wrong.status).toBe(401);
    // An MCP key is not the metrics token.
    const key = await fetch(url, { headers: { Authorization: `Bearer ${stack.keys[0]}` } });
    expect(key.status).toBe(401);
    expect(await none.text()).not.toContain(token);

    const { samples } = await scrape(stack.baseUrl, token);
    expect(sampleValue(samples, "svc_mcp_inflight_requests")).toBe(0);
  });
});
