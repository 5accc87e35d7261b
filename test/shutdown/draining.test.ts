/**
 * The app while it drains, with its port still open (in `svc serve` the port closes first, so no
 * new request reaches it; behind a proxy that keeps connections, or within the instant between,
 * one can): new MCP requests get 503 with Retry-After, /readyz turns 503 so the load balancer
 * drops the instance, /healthz stays 200, and /metrics counts the refusals.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createApp, type McpApp } from "../../src/http/app.js";
import { openRuntime, type Runtime } from "../../src/mcp/runtime.js";
import { createMetrics } from "../../src/metrics/index.js";
import { executeCall } from "../faults/fault-stack.js";
import { INITIALIZE, post } from "../helpers/http.js";
import { capturedLogger, randomKey } from "../helpers/stack.js";
import { sampleValue, scrape } from "../metrics/exposition.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** The app over the embedded sandbox (slow tasks), on a server the test closes itself. */
async function startApp(): Promise<{ key: string; baseUrl: string; mcp: McpApp }> {
  const key = randomKey("drain");
  const { logger } = capturedLogger([key]);
  const config = { ...loadConfig({}), shutdownGraceMs: 10_000 };
  const metrics = createMetrics();
  const runtime: Runtime = await openRuntime(config, logger, {
    sandbox: { keys: [key], slowMs: 60_000 },
    onBackendExchange: metrics.observeBackendExchange,
  });
  const mcp = createApp({ ...runtime, config, logger, metrics });
  const server: Server = createServer(mcp.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup = async () => {
    await mcp.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await runtime.close();
    metrics.close();
  };
  const { port } = server.address() as AddressInfo;
  return { key, baseUrl: `http://127.0.0.1:${port}`, mcp };
}

describe("an app that is draining", () => {
  it("answers the wait in flight, then refuses MCP requests with 503 and reports not ready", async () => {
    const { key, baseUrl, mcp } = await startApp();
    const call = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { ...executeCall("sandbox:slow", 45), _meta: { progressToken: "p7" } },
    };
    const waiting = await post(`${baseUrl}/mcp`, { key, body: call });
    const reader = (waiting.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let stream = decoder.decode((await reader.read()).value);
    expect(stream).toMatch(/notifications\/progress/);

    const closing = mcp.close();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      stream += decoder.decode(chunk.value);
    }
    expect(stream).toMatch(/"task_id":"tsk_[^"]+"/);
    expect(stream).toMatch(/"status":"(queued|running)"/);
    await closing;

    const refused = await post(`${baseUrl}/mcp`, { key, body: INITIALIZE });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({
      jsonrpc: "2.0",
      error: { message: expect.stringMatching(/shutting down/) },
    });
    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "shutting_down" });
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);

    const { samples } = await scrape(baseUrl);
    const requests = (labels: Record<string, string>) =>
      sampleValue(samples, "svc_mcp_requests_total", labels);
    expect(requests({ method: "none", tool: "", outcome: "shutting_down" })).toBe(1);
    expect(requests({ method: "tools/call", tool: "svc_execute", outcome: "ok" })).toBe(1);
    expect(sampleValue(samples, "svc_mcp_inflight_requests")).toBe(0);
  });
});
