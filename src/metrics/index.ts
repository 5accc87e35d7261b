/**
 * Prometheus metrics of one server: its /mcp requests, its backend exchanges and its requests in
 * flight, in a registry of its own (several servers in one process never collide), served
 * together with the process's metrics. Labels come from bounded sets only (see labels.ts).
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ExchangeReport } from "../backend/index.js";
import { backendCallLabels, type McpRequestSample, mcpRequestLabels } from "./labels.js";
import { processRegistry } from "./process.js";

export type { McpRequestSample } from "./labels.js";
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

interface CountedSpec {
  /** Name of the counter; the histogram's is `durationName`. */
  name: string;
  durationName: string;
  help: string;
  durationHelp: string;
  labelNames: readonly string[];
  buckets: number[];
}

/** A counter and a latency histogram with the same labels, observed together. */
function countedDurations(spec: CountedSpec, registry: Registry) {
  const { labelNames, buckets } = spec;
  const registers = [registry];
  const total = new Counter({ name: spec.name, help: spec.help, labelNames, registers });
  const seconds = new Histogram({
    name: spec.durationName,
    help: spec.durationHelp,
    labelNames,
    buckets,
    registers,
  });
  return (labels: Record<string, string>, elapsedSeconds: number) => {
    total.inc(labels);
    seconds.observe(labels, elapsedSeconds);
  };
}

export function createMetrics(): Metrics {
  const own = new Registry();
  const observeRequest = countedDurations(
    {
      name: "svc_mcp_requests_total",
      help: "Requests on /mcp, by JSON-RPC method, tool (tools/call) and outcome",
      durationName: "svc_mcp_request_duration_seconds",
      durationHelp: "Time from receiving an /mcp request to the end of its answer and tool call",
      labelNames: ["method", "tool", "outcome"],
      buckets: MCP_BUCKETS,
    },
    own,
  );
  const observeExchange = countedDurations(
    {
      name: "svc_mcp_backend_requests_total",
      help: "HTTP exchanges with the REST backend (each attempt), by route template, method and status",
      durationName: "svc_mcp_backend_request_duration_seconds",
      durationHelp: "Time of one HTTP exchange with the REST backend, body read included",
      labelNames: ["route", "method", "status"],
      buckets: BACKEND_BUCKETS,
    },
    own,
  );
  let inflight: () => number = () => 0;
  new Gauge({
    name: "svc_mcp_inflight_requests",
    help: "/mcp requests being answered, tool calls waiting on tasks among them",
    registers: [own],
    collect() {
      this.set(inflight());
    },
  });

  return {
    registry: Registry.merge([own, processRegistry()]),
    observeMcpRequest: (sample) => observeRequest(mcpRequestLabels(sample), sample.seconds),
    observeBackendExchange: (report) => observeExchange(backendCallLabels(report), report.seconds),
    trackInflight(count) {
      inflight = count;
    },
    close() {
      own.clear();
    },
  };
}
