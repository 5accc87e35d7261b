/** Raw HTTP helpers for the checks an MCP client cannot make on its own (bad bodies, Host). */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { request } from "undici";

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: "raw-test", version: "0.0.0" },
  },
};

export const MCP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

export interface PostOptions {
  key?: string;
  body: unknown;
  headers?: Record<string, string>;
}

/** POSTs `body` (a string is sent as is, anything else as JSON) with the MCP headers. */
export function post(url: string | URL, options: PostOptions): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      ...MCP_HEADERS,
      ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}),
      ...options.headers,
    },
    body: typeof options.body === "string" ? options.body : JSON.stringify(options.body),
  });
}

/** The JSON-RPC messages of an SSE (or JSON) response body. */
export async function messagesOf(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (!response.headers.get("content-type")?.includes("text/event-stream")) {
    return [JSON.parse(text)];
  }
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice("data: ".length)));
}

/** A fetch that sends `host` as the Host header (fetch itself forbids setting it). */
export function fetchWithHost(host: string): FetchLike {
  return async (url, init) => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const answer = await request(url, {
      method: (init?.method ?? "GET") as "GET",
      headers: { ...headers, host },
      body: typeof init?.body === "string" ? init.body : null,
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item !== undefined) responseHeaders.append(name, item);
      }
    }
    const hasBody = answer.statusCode !== 204 && answer.statusCode !== 202;
    return new Response(hasBody ? ReadableStream.from<Uint8Array>(answer.body) : null, {
      status: answer.statusCode,
      headers: responseHeaders,
    });
  };
}
