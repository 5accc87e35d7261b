/**
 * The `tools/list` answer straight from its cached serialization. Every client asks for the list
 * on connect, and serializing the 53-tool list on each request costs more than the rest of the
 * request. Only a plain, well-formed request takes this path; anything else (a batch, odd headers,
 * an unsupported protocol version) goes through the SDK, which answers or refuses it. The bytes
 * are the same as the SDK's SSE answer (a test compares both).
 */
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { type RequestId, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { Request, Response } from "express";
import type { ToolSet } from "../mcp/tool-sets.js";

const SSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
};

/** The id of a lone `tools/list` request that the SDK would accept as is; else undefined. */
export function plainToolsListId(req: Request): RequestId | undefined {
  const body = req.body as { method?: unknown; id?: unknown } | undefined;
  if (body === undefined || Array.isArray(body) || body.method !== "tools/list") return undefined;
  const id = body.id;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  const accept = req.headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
    return undefined;
  }
  if (!isJsonContentType(req.headers["content-type"])) return undefined;
  const version = req.headers["mcp-protocol-version"];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
    return undefined;
  }
  return id;
}

export function sendToolsList(res: Response, toolSet: ToolSet, id: RequestId): void {
  const data = `{"result":${toolSet.listingJson},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  // Node's own setHeader: Express's `set` would append a charset to the content type.
  for (const [name, value] of Object.entries(SSE_HEADERS)) res.setHeader(name, value);
  res.statusCode = 200;
  res.end(`event: message\ndata: ${data}\n\n`);
}
