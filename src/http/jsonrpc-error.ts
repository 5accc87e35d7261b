/** HTTP-level refusals of /mcp, written as JSON-RPC error bodies so MCP clients can show them. */
import type { Response } from "express";

export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_PARAMS = -32602;
export const JSONRPC_INTERNAL_ERROR = -32603;
/** Implementation-defined server error (the range the SDK uses for transport refusals). */
export const JSONRPC_SERVER_ERROR = -32000;

export interface Refusal {
  status: number;
  code: number;
  message: string;
  data?: unknown;
  headers?: Record<string, string>;
  /** Short machine word for the request log, e.g. `missing_key`. */
  reason: string;
}

export const INTERNAL_ERROR: Refusal = {
  status: 500,
  code: JSONRPC_INTERNAL_ERROR,
  message: "Internal error; it was logged",
  reason: "internal",
};

export function sendRefusal(res: Response, refusal: Refusal): void {
  res.locals.refusal = refusal.reason;
  if (refusal.headers) res.set(refusal.headers);
  res.status(refusal.status).json({
    jsonrpc: "2.0",
    id: null,
    error: {
      code: refusal.code,
      message: refusal.message,
      ...(refusal.data === undefined ? {} : { data: refusal.data }),
    },
  });
}
