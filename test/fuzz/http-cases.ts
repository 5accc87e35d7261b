/**
 * Random requests at the MCP server's door (method, path, query, headers, body) and the rules
 * every answer must keep, whatever was sent: no 5xx, a JSON error body on every refusal, JSON-RPC
 * 2.0 messages answering only the ids that were asked, no 2xx without a well-formed bearer key,
 * and no key echoed back.
 */

import { deflateSync, gzipSync } from "node:zlib";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";

export interface RawRequest {
  method: string;
  /** Path and query, e.g. `/mcp?platforms=x`. */
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** The body before any compression, when it is text. */
  text: string | undefined;
}

export interface RawResponse {
  status: number;
  contentType: string;
  text: string;
}

const METHODS = [
  "initialize",
  "notifications/initialized",
  "ping",
  "tools/list",
  "tools/call",
  "notifications/cancelled",
  "notifications/progress",
  "resources/list",
  "prompts/list",
  "logging/setLevel",
  "completion/complete",
];
const JSONRPC_INTERNAL_ERROR = -32603;
const COMPRESSORS: Record<string, (body: string | Uint8Array) => Buffer> = {
  gzip: (body) => gzipSync(body),
  deflate: (body) => deflateSync(body),
};
const BEARER = /^Bearer[ \t]+\S+[ \t]*$/i;
const MAX_KEY_LENGTH = 512;

/** Header values as HTTP allows them: tab, visible ASCII, space and Latin-1. */
const headerText = fc.string({
  maxLength: 60,
  unit: fc
    .oneof(
      fc.integer({ min: 0x20, max: 0x7e }),
      fc.integer({ min: 0xa0, max: 0xff }),
      fc.constant(9),
    )
    .map((code) => String.fromCharCode(code)),
});

const requestId = fc.oneof(
  { weight: 4, arbitrary: fc.integer() },
  fc.maxSafeInteger(),
  fc.constantFrom(2 ** 53, -0, 0.5, 1e308, -1),
  fc.string({ maxLength: 20 }),
  fc.string({ minLength: 2000, maxLength: 4000 }),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 1 }),
);

function paramsFor(method: string, toolNames: readonly string[]): fc.Arbitrary<unknown> {
  switch (method) {
    case "initialize":
      return fc.record(
        {
          protocolVersion: fc.oneof(fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS), fc.string()),
          capabilities: fc.oneof(fc.constant({}), fc.jsonValue({ maxDepth: 2 })),
          clientInfo: fc.oneof(
            fc.record({ name: fc.string(), version: fc.string() }),
            fc.jsonValue({ maxDepth: 1 }),
          ),
        },
        { requiredKeys: [] },
      );
    case "tools/call":
      return fc.record(
        {
          name: fc.oneof(fc.constantFrom(...toolNames), fc.string({ maxLength: 300 })),
          arguments: fc.oneof(fc.constant({}), fc.jsonValue({ maxDepth: 3 })),
          _meta: fc.record({ progressToken: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }),
        },
        { requiredKeys: [] },
      );
    case "notifications/cancelled":
      return fc.record({ requestId, reason: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] });
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
}

/** JSON-RPC messages, mostly well-formed (so that many get past the shape check), some not. */
function messages(toolNames: readonly string[]): fc.Arbitrary<unknown> {
  const wellFormed = fc.constantFrom(...METHODS).chain((method) =>
    fc.record(
      {
        jsonrpc: fc.constant("2.0"),
        ...(method.startsWith("notifications/")
          ? {}
          : { id: fc.oneof(fc.nat(), fc.string({ maxLength: 12 })) }),
        method: fc.constant(method),
        params: fc.oneof(
          paramsFor(method, toolNames),
          fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })),
        ),
      },
      { requiredKeys: ["jsonrpc", "method"] },
    ),
  );

  const anyMessage = fc
    .oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 40 }))
    .chain((method) =>
      fc.record(
        {
          jsonrpc: fc.oneof(
            { weight: 9, arbitrary: fc.constant("2.0") },
            fc.jsonValue({ maxDepth: 1 }),
          ),
          id: requestId,
          method: fc.oneof(
            { weight: 9, arbitrary: fc.constant(method) },
            fc.jsonValue({ maxDepth: 1 }),
          ),
          params: paramsFor(method, toolNames),
          result: fc.jsonValue({ maxDepth: 1 }),
          error: fc.jsonValue({ maxDepth: 1 }),
        },
        { requiredKeys: ["jsonrpc"] },
      ),
    );

  return fc.oneof({ weight: 3, arbitrary: wellFormed }, anyMessage);
}

const nested = fc
  .integer({ min: 100, max: 20_000 })
  .map((depth) => "[".repeat(depth) + "]".repeat(depth));

function bodies(toolNames: readonly string[]): fc.Arbitrary<string | Uint8Array> {
  const message = messages(toolNames);
  return fc.oneof(
    { weight: 20, arbitrary: message.map((m) => JSON.stringify(m)) },
    { weight: 5, arbitrary: fc.array(message, { maxLength: 6 }).map((m) => JSON.stringify(m)) },
    fc
      .array(fc.constant({ jsonrpc: "2.0", method: "ping", id: 1 }), {
        minLength: 101,
        maxLength: 103,
      })
      .map((m) => JSON.stringify(m)),
    fc
      .constantFrom(
        "123456789012345678901234567890",
        "1e400",
        "-1e-400",
        "1.0",
        '"\\ud800"',
        "{}",
        "[]",
      )
      .map((id) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`),
    message.chain((m) => {
      const text = JSON.stringify(m);
      return fc.nat({ max: Math.max(0, text.length - 1) }).map((cut) => text.slice(0, cut));
    }),
    nested,
    nested.map(
      (deep) =>
        `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"svc_account","arguments":{"x":${deep}}}}`,
    ),
    fc.string({ maxLength: 200 }),
    fc.uint8Array({ maxLength: 200 }),
    fc.constant(
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(1_100_000)}"}}`,
    ),
    fc.constantFrom("", "null", "true", "0", '"2.0"', "{", "[{]"),
  );
}

function optional(
  arbitrary: fc.Arbitrary<string>,
  presence = 0.6,
): fc.Arbitrary<string | undefined> {
  return fc.option(arbitrary, { freq: Math.round(1 / (1 - presence)) }).map((v) => v ?? undefined);
}

export interface RequestContext {
  /** Keys the server accepts; the first one is used most. */
  keys: readonly string[];
  /** Valid `?platforms=` / `?tools=` values, so that filtered addresses are reached too. */
  filters: readonly string[];
  /** Real tool names, so that tools/call reaches tools too. */
  toolNames: readonly string[];
}

export function rawRequests(context: RequestContext): fc.Arbitrary<RawRequest> {
  const [key = "", other = key] = context.keys;
  const authorization = fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${key}`) },
    fc.constantFrom(
      `Bearer ${other}`,
      `bearer ${key}`,
      `Bearer\t${key}  `,
      `Bearer ${key} extra`,
      "Bearer",
      "Bearer ",
      "Basic dXNlcjpwYXNz",
      `Bearer ${"k".repeat(MAX_KEY_LENGTH + 1)}`,
      "Bearer unknown-key",
    ),
    headerText,
  );
  const query = fc.oneof(
    { weight: 20, arbitrary: fc.constant("") },
    fc.constantFrom(...context.filters),
    fc.constantFrom(
      "?api_key=x",
      "?readonly=maybe",
      "?tools=",
      "?platforms=nope",
      "?readonly=true",
    ),
    fc.webQueryParameters().map((q) => `?${q}`),
  );
  const path = fc.oneof(
    { weight: 12, arbitrary: fc.constant("/mcp") },
    fc.constantFrom("/mcp/", "/MCP", "/", "/healthz", "/mcp/x", "//mcp", "/mcp%00"),
  );
  return fc
    .record({
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant("POST") },
        fc.constantFrom("GET", "DELETE", "PUT", "PATCH", "OPTIONS", "HEAD"),
      ),
      path,
      query,
      body: bodies(context.toolNames),
      contentType: optional(
        fc.oneof(
          { weight: 16, arbitrary: fc.constant("application/json") },
          fc.constantFrom(
            "application/json; charset=utf-8",
            "application/json; charset=latin1",
            "application/json; charset=utf-16",
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "*/*",
            "",
          ),
          headerText,
        ),
        0.9,
      ),
      accept: optional(
        fc.oneof(
          { weight: 16, arbitrary: fc.constant("application/json, text/event-stream") },
          fc.constantFrom("application/json", "text/event-stream", "*/*", "text/html", ""),
          headerText,
        ),
        0.9,
      ),
      authorization: optional(authorization, 0.9),
      protocolVersion: optional(
        fc.oneof(
          fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS),
          fc.constant("1999-01-01"),
          headerText,
        ),
        0.3,
      ),
      encoding: optional(fc.constantFrom("gzip", "deflate", "br", "identity", "x-unknown"), 0.05),
      // With gzip or deflate: the body compressed as declared (the 1.1 MB body becomes a small bomb).
      compressed: fc.boolean(),
      origin: optional(
        fc.constantFrom("http://localhost:5173", "https://evil.example", "null", "http://[::1]"),
        0.1,
      ),
      host: optional(
        fc.constantFrom("evil.example", "localhost", "127.0.0.1:1", "[::1]:80", "a b"),
        0.05,
      ),
      requestId: optional(headerText, 0.1),
      sessionId: optional(headerText, 0.05),
    })
    .map((r) => {
      const headers: Record<string, string> = {};
      const set = (name: string, value: string | undefined) => {
        if (value !== undefined) headers[name] = value;
      };
      set("content-type", r.contentType);
      set("accept", r.accept);
      set("authorization", r.authorization);
      set("mcp-protocol-version", r.protocolVersion);
      set("content-encoding", r.encoding);
      set("origin", r.origin);
      set("host", r.host);
      set("x-request-id", r.requestId);
      set("mcp-session-id", r.sessionId);
      const withBody = !["GET", "HEAD", "OPTIONS"].includes(r.method);
      const compress = r.compressed ? COMPRESSORS[r.encoding ?? ""] : undefined;
      const body = compress ? new Uint8Array(compress(r.body)) : r.body;
      return {
        method: r.method,
        path: `${r.path}${r.query}`,
        headers,
        body: withBody ? body : undefined,
        text: withBody && typeof r.body === "string" ? r.body : undefined,
      };
    });
}

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
