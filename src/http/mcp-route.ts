/**
 * POST /mcp, stateless Streamable HTTP: each POST gets a fresh MCP server and transport (SSE
 * responses, so progress notifications reach the client). Its handlers' signals fire when the
 * client goes away, when the client cancels the request from another POST, and on shutdown.
 */
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CancelledNotificationSchema,
  isInitializeRequest,
  isJSONRPCRequest,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "../log.js";
import type { ServerFactory } from "../mcp/server.js";
import { callerOf, type KeyVerifier } from "./auth.js";
import type { Inflight } from "./inflight.js";
import {
  INTERNAL_ERROR,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_SERVER_ERROR,
  type Refusal,
  sendRefusal,
} from "./jsonrpc-error.js";
import { type RequestRecord, recordOf } from "./request-log.js";
import { selectedToolsOf } from "./tool-filter.js";
import { plainToolsListId, sendToolsList } from "./tools-list.js";

export const MAX_BODY_BYTES = 1024 * 1024;
const MAX_BATCH = 100;

const SHUTTING_DOWN: Refusal = {
  status: 503,
  code: JSONRPC_SERVER_ERROR,
  message: "The server is shutting down; retry on another instance",
  headers: { "Retry-After": "1" },
  reason: "shutting_down",
};
const NOT_JSONRPC: Refusal = {
  status: 400,
  code: JSONRPC_INVALID_REQUEST,
  message: `The body is not a JSON-RPC 2.0 message (or a batch of 1 to ${MAX_BATCH})`,
  reason: "not_jsonrpc",
};
const KEY_REJECTED: Refusal = {
  status: 401,
  code: JSONRPC_SERVER_ERROR,
  message: "The API key was rejected by the service",
  headers: { "WWW-Authenticate": 'Bearer realm="svc-mcp", error="invalid_token"' },
  reason: "key_rejected",
};

export interface McpRouteDeps {
  serverFactory: ServerFactory;
  verifier: KeyVerifier;
  inflight: Inflight;
  logger: Logger;
  isClosing: () => boolean;
}

/**
 * The shape of a JSON-RPC 2.0 message, checked cheaply so that a body that is clearly something
 * else gets a plain answer; the SDK then validates each message in full.
 */
function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return false;
  const id = message.id;
  const validId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  if ("method" in message) {
    const params = message.params;
    const validParams = params === undefined || (typeof params === "object" && params !== null);
    return typeof message.method === "string" && validParams && (!("id" in message) || validId);
  }
  return validId && ("result" in message || "error" in message);
}

function parseMessages(body: unknown): JSONRPCMessage[] | undefined {
  const list: unknown[] = Array.isArray(body) ? body : [body];
  if (list.length === 0 || list.length > MAX_BATCH) return undefined;
  return list.every(isJsonRpcMessage) ? list : undefined;
}

function describe(messages: readonly JSONRPCMessage[], record: RequestRecord): void {
  for (const message of messages) {
    if (!("method" in message)) continue;
    record.rpc.push({
      method: message.method,
      ...("id" in message ? { id: message.id } : {}),
      ...(message.method === "tools/call" && typeof message.params?.name === "string"
        ? { tool: message.params.name.slice(0, 80) }
        : {}),
    });
  }
}

export function mcpPost(deps: McpRouteDeps): RequestHandler {
  function routeCancellations(keyHash: string, messages: readonly JSONRPCMessage[]): void {
    for (const message of messages) {
      // The method is compared first: a schema check that fails builds a costly error report.
      if (!("method" in message) || message.method !== "notifications/cancelled") continue;
      const parsed = CancelledNotificationSchema.safeParse(message);
      if (!parsed.success || parsed.data.params.requestId === undefined) continue;
      const outcome = deps.inflight.cancel(keyHash, parsed.data.params.requestId);
      if (outcome === "ambiguous") {
        deps.logger.warn("cancellation not applied: two requests of one key share that id");
      }
    }
  }

  return async (req: Request, res: Response) => {
    const record = recordOf(res);
    if (deps.isClosing()) {
      sendRefusal(res, SHUTTING_DOWN);
      return;
    }
    const messages = parseMessages(req.body);
    if (!messages) {
      sendRefusal(res, NOT_JSONRPC);
      return;
    }
    describe(messages, record);
    const caller = callerOf(res);
    if (
      messages.some((m) => "method" in m && m.method === "initialize" && isInitializeRequest(m))
    ) {
      const verdict = await deps.verifier.verify(caller);
      if (res.closed) return;
      if (verdict === "rejected") {
        sendRefusal(res, KEY_REJECTED);
        return;
      }
    }
    routeCancellations(caller.keyHash, messages);

    const selected = selectedToolsOf(res);
    const listId = plainToolsListId(req);
    if (listId !== undefined) {
      sendToolsList(res, selected.toolSet, listId);
      return;
    }
    const server = deps.serverFactory({
      toolSet: selected.toolSet,
      filtered: selected.filtered,
      apiKey: caller.apiKey,
      logger: deps.logger.child({ reqId: record.reqId }),
      observeCall: record.observeCall,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: false,
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    const end = () => void server.close().catch(() => undefined);
    const requestIds = messages.filter(isJSONRPCRequest).map((m) => m.id);
    const release = deps.inflight.open({ keyHash: caller.keyHash, requestIds, abort: end });
    res.on("close", () => {
      release();
      end();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      deps.logger.error({ err: error, reqId: record.reqId }, "MCP request failed");
      if (!res.headersSent) sendRefusal(res, INTERNAL_ERROR);
    }
  };
}
