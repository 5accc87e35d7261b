/**
 * The label rules (every value from a bounded set) and the README's metrics table, both checked
 * against the code without a network.
 */
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/metrics/index.js";
import {
  backendCallLabels,
  type McpRequestSample,
  mcpRequestLabels,
} from "../../src/metrics/labels.js";
import { codeSpans, tables } from "../readme/markdown.js";

function sample(overrides: Partial<McpRequestSample>): McpRequestSample {
  return { rpc: [], calls: [], refusal: undefined, status: 200, seconds: 0.01, ...overrides };
}

describe("MCP request labels", () => {
  it("keep the methods MCP defines and fold any other name into `other`", () => {
    for (const method of ["initialize", "tools/list", "tools/call", "notifications/cancelled"]) {
      expect(mcpRequestLabels(sample({ rpc: [{ method }] })).method).toBe(method);
    }
    for (const method of ["tools/cal", "x/sk-live-123", "", "a".repeat(10_000)]) {
      expect(mcpRequestLabels(sample({ rpc: [{ method }] })).method).toBe("other");
    }
  });

  it("say `none` before the body was read and `batch` for several messages", () => {
    expect(mcpRequestLabels(sample({ refusal: "missing_key", status: 401 }))).toEqual({
      method: "none",
      tool: "",
      outcome: "missing_key",
    });
    const batch = sample({
      rpc: [{ method: "tools/call" }, { method: "tools/call" }],
      calls: [
        { tool: "svc_execute", outcome: "ok" },
        { tool: "svc_account", outcome: "tool_error" },
      ],
    });
    expect(mcpRequestLabels(batch)).toEqual({ method: "batch", tool: "", outcome: "ok" });
  });

  it("name the tool of a call, `unknown` for a name the address does not have", () => {
    const call = (tool: string, outcome: string) =>
      mcpRequestLabels(sample({ rpc: [{ method: "tools/call" }], calls: [{ tool, outcome }] }));
    expect(call("svc_execute", "cancelled")).toEqual({
      method: "tools/call",
      tool: "svc_execute",
      outcome: "cancelled",
    });
    expect(call("svc_whatever the client typed", "unknown_tool")).toEqual({
      method: "tools/call",
      tool: "unknown",
      outcome: "unknown_tool",
    });
  });

  it("take the outcome from the refusal, else the call, else the HTTP status", () => {
    const rpc = [{ method: "tools/list" }];
    expect(mcpRequestLabels(sample({ rpc, refusal: "shutting_down", status: 503 })).outcome).toBe(
      "shutting_down",
    );
    expect(mcpRequestLabels(sample({ rpc, status: 200 })).outcome).toBe("ok");
    expect(mcpRequestLabels(sample({ rpc, status: 500 })).outcome).toBe("error");
  });
});

describe("backend exchange labels", () => {
  it("give the status code of an answer, or the code of the failure", () => {
    const exchange = { route: "/v1/tasks/{task_id}", method: "GET", seconds: 0.1 };
    expect(backendCallLabels({ ...exchange, status: 429 })).toEqual({
      route: "/v1/tasks/{task_id}",
      method: "GET",
      status: "429",
    });
    expect(backendCallLabels({ ...exchange, error: "timeout" }).status).toBe("timeout");
  });
});

describe("the README's metrics table", () => {
  it("lists exactly the server's metrics, with their types and labels", async () => {
    const metrics = createMetrics();
    metrics.observeMcpRequest(sample({ rpc: [{ method: "tools/list" }] }));
    metrics.observeBackendExchange({
      route: "/v1/account",
      method: "GET",
      status: 200,
      seconds: 1,
    });
    const inCode = (await metrics.registry.getMetricsAsJSON())
      .filter((metric) => metric.name.startsWith("svc_mcp_"))
      .map((metric) => ({
        name: metric.name,
        type: String(metric.type),
        labels: [
          ...new Set(
            metric.values.flatMap((value) => Object.keys(value.labels).filter((l) => l !== "le")),
          ),
        ].sort(),
      }));
    metrics.close();

    const table = tables().find((t) => t.header.join() === "metric,type,labels,what it measures");
    const documented = (table?.rows ?? [])
      .filter(([name]) => name?.startsWith("`svc_mcp_"))
      .map(([name = "", type = "", labels = ""]) => ({
        name: codeSpans(name)[0],
        type,
        labels: codeSpans(labels).sort(),
      }));
    const byName = (a: { name?: string }, b: { name?: string }) =>
      String(a.name).localeCompare(String(b.name));
    expect(documented.sort(byName)).toEqual(inCode.sort(byName));
  });
});
