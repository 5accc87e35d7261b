/**
 * Prometheus metrics of one server: its /mcp requests, its backend exchanges and its requests in
 * flight, in a registry of its own (several servers in one process never collide), served
 * together with the process's metrics. Labels come from bounded sets only (see labels.ts).
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ExchangeReport } from "../backend/index.js";
import { backendCallLabels, type McpRequestSample, mcpRequestLabels } from "./labels.js";
import { processRegistry } from "./process.js";

export { type McpRequestSample, UNKNOWN_TOOL } from "./labels.js";
export { scrapeHandler } from "./scrape.js";

/** Tool calls wait up to `SVC_WAIT_MAX_SECONDS` (50 s by default, 300 s at most). */
const MCP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300];
const BACKEND_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface Metrics {
  /** This server's metrics and the process's, in one registry. */
  registry: Registry;
  observeMcpRequest(sample: McpRequestSample): void;
  observeBackendExchange(report: ExchangeReport): void;
  /** Reports `count()` as the number of /mcp requests in flight at each scrape. */
  trackInflight(count: () => number): void;
  close(): void;
}

export function createMetrics(): Metrics {
  const own = new Registry();
  const registers = [own];
  const mcpLabels = ["method", "tool", "outcome"] as const;
  const backendLabels = ["route", "method", "status"] as const;

  const requests = new Counter({
    name: "svc_mcp_requests_total",
    help: "Requests on /mcp, by JSON-RPC method, tool (tools/call) and outcome",
    labelNames: mcpLabels,
    registers,
  });
  const requestSeconds = new Histogram({
    name: "svc_mcp_request_duration_seconds",
    help: "Time from receiving an /mcp request to its answer's end and its tool call's end",
    labelNames: mcpLabels,
    buckets: MCP_BUCKETS,
    registers,
  });
  const backendRequests = new Counter({
    name: "svc_mcp_backend_requests_total",
    help: "HTTP exchanges with the REST backend (each attempt), by route template, method and status",
    labelNames: backendLabels,
    registers,
  });
  const backendSeconds = new Histogram({
    name: "svc_mcp_backend_request_duration_seconds",
    help: "Time of one HTTP exchange with the REST backend, body read included",
    labelNames: backendLabels,
    buckets: BACKEND_BUCKETS,
    registers,
  });
  let inflight: () => number = () => 0;
  new Gauge({
    name: "svc_mcp_inflight_requests",
    help: "/mcp requests being answered, tool calls waiting on tasks among them",
    registers,
    collect() {
      this.set(inflight());
    },
  });

  return {
    registry: Registry.merge([own, processRegistry()]),
    observeMcpRequest(sample) {
      const labels = mcpRequestLabels(sample);
      requests.inc(labels);
      requestSeconds.observe(labels, sample.seconds);
    },
    observeBackendExchange(report) {
      const labels = backendCallLabels(report);
      backendRequests.inc(labels);
      backendSeconds.observe(labels, report.seconds);
    },
    trackInflight(count) {
      inflight = count;
    },
    close() {
      own.clear();
    },
  };
}
