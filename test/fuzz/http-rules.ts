/**
 * The rules every answer of /mcp keeps, whatever was sent: no 5xx, a JSON error body on every
 * refusal, no JSON-RPC internal error for client input, JSON-RPC 2.0 messages answering only the
 * ids that were asked, no 2xx without a well-formed bearer key, and no key echoed back.
 */
import { MAX_KEY_LENGTH, type RawRequest } from "./http-cases.js";

export interface RawResponse {
  status: number;
  contentType: string;
  text: string;
}

const JSONRPC_INTERNAL_ERROR = -32603;
const BEARER = /^Bearer[ \t]+\S+[ \t]*$/i;

function hasBearer(request: RawRequest): boolean {
  const value = request.headers.authorization ?? "";
  const key = value.trim().split(/[ \t]+/)[1] ?? "";
  return BEARER.test(value) && key.length <= MAX_KEY_LENGTH;
}

/** The ids of the JSON-RPC requests in a body, when it parses. */
function idsAsked(request: RawRequest): unknown[] {
  if (request.text === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(request.text);
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((m) =>
      m && typeof m === "object" && "id" in m ? [(m as { id: unknown }).id] : [],
    );
  } catch {
    return [];
  }
}

function sseMessages(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice("data:".length)));
}

function isErrorBody(value: unknown): boolean {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.message === "string" && error.message.length > 0 && error.code !== undefined;
}

/** Throws an Error naming the broken rule; returns nothing when the answer is acceptable. */
export function checkResponse(
  request: RawRequest,
  response: RawResponse,
  secrets: readonly string[],
): void {
  const fail = (rule: string) => {
    throw new Error(
      `${rule} (HTTP ${response.status}, body ${JSON.stringify(response.text.slice(0, 300))})`,
    );
  };
  if (response.status >= 500) fail("a 5xx answer to client input");
  for (const secret of secrets) if (response.text.includes(secret)) fail("an API key echoed back");
  const success = response.status >= 200 && response.status < 300;
  if (success && request.method === "POST" && !hasBearer(request)) {
    fail("a 2xx answer without a well-formed bearer key");
  }
  if (request.method === "HEAD" || response.status === 204 || response.status === 202) {
    if (response.text !== "" && request.method !== "HEAD") fail("a body on a 202/204 answer");
    return;
  }
  if (!success) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(response.text);
    } catch {
      fail("a refusal whose body is not JSON");
    }
    if (!isErrorBody(parsed)) fail("a refusal without an error code and message");
    return;
  }
  if (!request.path.startsWith("/mcp") || request.method !== "POST") return;
  const messages = response.contentType.includes("text/event-stream")
    ? sseMessages(response.text)
    : [JSON.parse(response.text)];
  const asked = idsAsked(request).map((id) => JSON.stringify(id));
  for (const reply of messages) {
    const { jsonrpc, id, error } = reply as {
      jsonrpc?: unknown;
      id?: unknown;
      error?: { code?: unknown };
    };
    if (jsonrpc !== "2.0") fail("a message that is not JSON-RPC 2.0");
    if (error?.code === JSONRPC_INTERNAL_ERROR) fail("a JSON-RPC internal error for client input");
    if (id !== undefined && !asked.includes(JSON.stringify(id)))
      fail("an answer to an id never asked");
  }
}
