/**
 * Label values of the metrics, each from a bounded set: a label never carries a key, a task id, a
 * cursor or any other text a client chose. What falls outside the known values is folded into one
 * word (`other`, `unknown`).
 */

import { ClientNotificationSchema, ClientRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ExchangeReport } from "../backend/index.js";

/** Every JSON-RPC method an MCP client may send, as the SDK defines them. */
const MCP_METHODS: ReadonlySet<string> = new Set(
  [...ClientRequestSchema.options, ...ClientNotificationSchema.options].map(
    (schema) => schema.shape.method.value,
  ),
);

/** `method` when the request was refused before its body was read (no JSON-RPC message). */
const NO_METHOD = "none";
/** `method` of a body holding several JSON-RPC messages. */
const BATCH = "batch";
/** `method` of a method name MCP does not define. */
const OTHER_METHOD = "other";
/** `tool` of a tools/call naming a tool this address does not have. */
const UNKNOWN_TOOL = "unknown";

/** One finished request on /mcp, as the request log sees it. */
export interface McpRequestSample {
  /** The JSON-RPC requests and notifications of the body; empty when refused before reading it. */
  rpc: readonly { method: string }[];
  /** The tool calls it ran, with how each ended. */
  calls: readonly { tool: string; outcome: string }[];
  /** The refusal's reason word (`missing_key`, `shutting_down`, …), when it was refused. */
  refusal: string | undefined;
  status: number;
  seconds: number;
}

export interface McpRequestLabels {
  method: string;
  tool: string;
  outcome: string;
  [label: string]: string;
}

/**
 * `method`: the JSON-RPC method (or none/batch/response/other). `tool`: the tool of a tools/call
 * that reached a tool handler, else empty. `outcome`: the refusal's reason, else how the tool call
 * ended (ok, tool_error, failed, cancelled, unknown_tool), else ok/error by HTTP status.
 */
export function mcpRequestLabels(sample: McpRequestSample): McpRequestLabels {
  const [first, ...rest] = sample.rpc;
  const method =
    first === undefined
      ? NO_METHOD
      : rest.length > 0
        ? BATCH
        : MCP_METHODS.has(first.method)
          ? first.method
          : OTHER_METHOD;
  // Only a lone tools/call names its tool: a batch's calls would multiply the label values.
  const call = rest.length === 0 ? sample.calls[0] : undefined;
  return {
    method,
    tool: call ? (call.outcome === "unknown_tool" ? UNKNOWN_TOOL : call.tool) : "",
    outcome: sample.refusal ?? call?.outcome ?? (sample.status < 400 ? "ok" : "error"),
  };
}

export interface BackendCallLabels {
  route: string;
  method: string;
  status: string;
  [label: string]: string;
}

/** `status`: the HTTP status code, or the failure's code when no full answer came back. */
export function backendCallLabels(sample: ExchangeReport): BackendCallLabels {
  return {
    route: sample.route,
    method: sample.method,
    status: sample.error ?? String(sample.status ?? "none"),
  };
}
