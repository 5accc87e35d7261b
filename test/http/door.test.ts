/** The checks at the door of /mcp, over real sockets: auth, key in URL, Origin, Host, methods, bodies. */
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_PARAMETERS } from "../../src/http/guards.js";
import { fetchWithHost, INITIALIZE, MCP_HEADERS, messagesOf, post } from "../helpers/http.js";
import { randomKey, type Stack, startStack } from "../helpers/stack.js";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    config: { allowedOrigins: ["https://app.example"], allowedHosts: ["mcp.internal:8080"] },
  });
});
afterAll(() => stack.close());

async function refusal(promise: Promise<unknown>): Promise<StreamableHTTPError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StreamableHTTPError);
  return error as StreamableHTTPError;
}

async function jsonRpcError(response: Response) {
  const body = (await response.json()) as {
    jsonrpc: string;
    id: null;
    error: { code: number; message: string };
  };
  expect(body.jsonrpc).toBe("2.0");
  expect(body.id).toBeNull();
  return body.error;
}

describe("authentication", () => {
  it("refuses a connection without a key with 401 and WWW-Authenticate: Bearer", async () => {
    const error = await refusal(stack.connect({ key: null }));
    expect(error.code).toBe(401);
    expect(error.message).toMatch(/Authorization: Bearer/);

    const response = await post(stack.mcpUrl, { body: INITIALIZE });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    expect((await jsonRpcError(response)).message).toMatch(/Authentication required/);
  });

  it("refuses a key the backend rejects with 401 at initialize", async () => {
    const wrong = randomKey("wrong");
    const error = await refusal(stack.connect({ key: wrong }));
    expect(error.code).toBe(401);
    expect(error.message).toMatch(/rejected/);

    const response = await post(stack.mcpUrl, { key: wrong, body: INITIALIZE });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer .*invalid_token/);
  });

  it("accepts a key the backend knows and passes it through to tool calls", async () => {
    const client = await stack.connect({ key: stack.keys[1] });
    const result = await client.callTool({ name: "svc_account", arguments: {} });
    expect(result.isError).toBeFalsy();
    const sandboxKeyIds = (result.structuredContent as { key_id: string }).key_id;
    expect(typeof sandboxKeyIds).toBe("string");
    expect(JSON.stringify(result)).not.toContain(stack.keys[1]);
  });

  it.each(KEY_PARAMETERS)(
    "refuses a key in the query parameter %s with 400, unused and unlogged",
    async (name) => {
      const key = stack.keys[0] as string;
      const error = await refusal(stack.connect({ query: { [name]: key } }));
      expect(error.code).toBe(400);
      expect(error.message).toMatch(/belongs in the Authorization header/);

      // Even with a valid header, the URL key is refused, and the body never mentions the key.
      const response = await post(stack.urlFor({ [name.toUpperCase()]: key }), {
        key,
        body: INITIALIZE,
      });
      expect(response.status).toBe(400);
      const message = (await jsonRpcError(response)).message;
      expect(message).toContain(name);
      expect(message).not.toContain(key);
      expect(stack.logs.join("")).not.toContain(key);
    },
  );
});

describe("origin and host", () => {
  it("refuses a foreign Origin with 403", async () => {
    const error = await refusal(stack.connect({ headers: { Origin: "https://evil.example" } }));
    expect(error.code).toBe(403);
    expect(error.message).toMatch(/Origin not allowed/);
  });

  it("accepts loopback and configured origins, with CORS headers and preflight", async () => {
    for (const origin of ["http://localhost:6274", "https://app.example"]) {
      const client = await stack.connect({ headers: { Origin: origin } });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    }
    const preflight = await fetch(stack.mcpUrl, {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
  });

  it("refuses a Host header that is neither loopback nor configured (DNS rebinding)", async () => {
    const error = await refusal(stack.connect({ fetch: fetchWithHost("evil.example:3000") }));
    expect(error.code).toBe(403);
    expect(error.message).toMatch(/Host header not allowed/);
  });

  it("accepts a configured Host", async () => {
    const client = await stack.connect({ fetch: fetchWithHost("mcp.internal:8080") });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe("methods and bodies", () => {
  it.each(["GET", "DELETE", "PUT"])(
    "answers %s /mcp with 405 and a JSON-RPC error",
    async (method) => {
      const response = await fetch(stack.mcpUrl, {
        method,
        headers: { Authorization: `Bearer ${stack.keys[0]}`, Accept: "text/event-stream" },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect((await jsonRpcError(response)).message).toMatch(/POST only/);
    },
  );

  it("refuses a body over 1 MiB with 413 and accepts one just under it", async () => {
    const key = stack.keys[0] as string;
    const call = (size: number) => ({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "svc_get_task", arguments: { task_id: "x".repeat(size) } },
    });
    const overhead = JSON.stringify(call(0)).length;
    const tooLarge = await post(stack.mcpUrl, { key, body: call(1024 * 1024 - overhead + 1) });
    expect(tooLarge.status).toBe(413);
    expect((await jsonRpcError(tooLarge)).message).toMatch(/1 MiB/);

    const justUnder = await post(stack.mcpUrl, { key, body: call(1024 * 1024 - overhead - 1) });
    expect(justUnder.status).toBe(200);
    const [answer] = await messagesOf(justUnder);
    expect(answer?.result).toMatchObject({ isError: true });
  });

  it.each([
    ["not JSON", "{nope", 400, -32700],
    ["a JSON string", '"hello"', 400, -32700],
    ["JSON that is not JSON-RPC", { hello: "world" }, 400, -32600],
    ["an empty batch", [], 400, -32600],
    ["a request without a method", { jsonrpc: "2.0", id: 1 }, 400, -32600],
  ])("refuses %s with a JSON-RPC error", async (_label, body, status, code) => {
    const response = await post(stack.mcpUrl, { key: stack.keys[0], body });
    expect(response.status).toBe(status);
    expect((await jsonRpcError(response)).code).toBe(code);
  });

  it("refuses a body that is not application/json with 415", async () => {
    const response = await post(stack.mcpUrl, {
      key: stack.keys[0],
      body: INITIALIZE,
      headers: { "Content-Type": "text/plain" },
    });
    expect(response.status).toBe(415);
  });

  it("answers a JSON-RPC batch", async () => {
    const response = await post(stack.mcpUrl, {
      key: stack.keys[0],
      body: [
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ],
      headers: { ...MCP_HEADERS, "Mcp-Protocol-Version": "2025-06-18" },
    });
    expect(response.status).toBe(200);
    const ids = (await messagesOf(response)).map((m) => m.id);
    expect(ids.sort()).toEqual([1, 2]);
  });
});

describe("tools/list from its cached serialization", () => {
  it("answers exactly as the SDK does, headers and bytes", async () => {
    const key = stack.keys[0];
    const list = { jsonrpc: "2.0", id: "list-1", method: "tools/list" };
    const direct = await post(stack.urlFor({ platforms: "pin-network" }), { key, body: list });
    // A batch of one takes the SDK's own path.
    const viaSdk = await post(stack.urlFor({ platforms: "pin-network" }), { key, body: [list] });
    for (const name of ["content-type", "cache-control", "x-accel-buffering"]) {
      expect(direct.headers.get(name)).toBe(viaSdk.headers.get(name));
    }
    const directText = await direct.text();
    expect(directText).toMatch(/^event: message\ndata: /);
    expect(directText).toBe(await viaSdk.text());
  });

  it("leaves an unsupported protocol version to the SDK, which refuses it", async () => {
    const response = await post(stack.mcpUrl, {
      key: stack.keys[0],
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      headers: { "Mcp-Protocol-Version": "1999-01-01" },
    });
    expect(response.status).toBe(400);
    expect((await jsonRpcError(response)).message).toMatch(/Unsupported protocol version/);
  });
});

describe("probes", () => {
  it("answers /healthz and /readyz without a key", async () => {
    const health = await fetch(`${stack.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${stack.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", backend: { reachable: true } });
  });
});
