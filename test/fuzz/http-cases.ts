/**
 * Random requests at the MCP server's door: method, path, filter query, headers (content type,
 * accept, authorization, origin, host, encoding) and bodies from well-formed JSON-RPC to garbage.
 * The rules every answer must keep are in http-rules.ts.
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
const COMPRESSORS: Record<string, (body: string | Uint8Array) => Buffer> = {
  gzip: (body) => gzipSync(body),
  deflate: (body) => deflateSync(body),
};
export const MAX_KEY_LENGTH = 512;

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
