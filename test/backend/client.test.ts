import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AbortedError,
  AuthenticationError,
  type BackendClient,
  ConnectionError,
  createBackendClient,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  ServerError,
  SubmitOutcomeUnknownError,
  TimeoutError,
  UnexpectedResponseError,
} from "../../src/backend/index.js";
import { closedPort, json, type ScriptedServer, startScriptedServer } from "./scripted-server.js";

const KEY = "test-key-0123456789";
const TIMEOUTS = {
  connectTimeoutMs: 1_000,
  headersTimeoutMs: 300,
  bodyTimeoutMs: 300,
  maxResponseBytes: 4096,
};
const TASK = {
  task_id: "t1",
  endpoint: "social-network/comments",
  status: "queued",
  created_time: "2030-01-01T00:00:00Z",
  finished_time: null,
  result_count: null,
  error_message: null,
};

let server: ScriptedServer;
let client: BackendClient;

beforeAll(async () => {
  server = await startScriptedServer();
  client = createBackendClient({ baseUrl: server.url, ...TIMEOUTS });
});
afterEach(() => {
  server.requests.length = 0;
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** Answers with `failures` in order, then with `success`. */
function failThen(
  failures: ((res: import("node:http").ServerResponse) => void)[],
  success: unknown,
) {
  server.handle((_req, res) => {
    const failure = failures[server.requests.length - 1];
    if (failure) failure(res);
    else json(res, 200, success);
  });
}

const destroy = (res: import("node:http").ServerResponse) => res.socket?.destroy();

describe("reads", () => {
  it("send the key only as a Bearer header and pass limit and cursor", async () => {
    failThen([], TASK);
    const task = await client.getTask(KEY, "t 1/x", { limit: 5, cursor: "c+/=" });
    expect(task.status).toBe("queued");
    const [seen] = server.requests;
    expect(seen?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen?.headers["content-type"]).toBe("application/json");
    expect(seen?.url).toBe("/v1/tasks/t%201%2Fx?limit=5&cursor=c%2B%2F%3D");
    expect(seen?.url).not.toContain(KEY);
  });

  it("are retried after 500s until one succeeds", async () => {
    failThen([(res) => json(res, 500, {}), (res) => json(res, 503, {})], TASK);
    await expect(client.getTask(KEY, "t1")).resolves.toMatchObject({ task_id: "t1" });
    expect(server.requests).toHaveLength(3);
  });

  it("are retried after a 429 that sets Retry-After", async () => {
    failThen([(res) => json(res, 429, {}, { "retry-after": "0" })], TASK);
    await expect(client.getTask(KEY, "t1")).resolves.toMatchObject({ task_id: "t1" });
    expect(server.requests).toHaveLength(2);
  });

  it("are not retried when Retry-After asks for too long a wait", async () => {
    failThen(
      [
        (res) =>
          json(
            res,
            429,
            { error: { code: "rate_limited", message: "Slow down" } },
            { "retry-after": "120" },
          ),
      ],
      TASK,
    );
    const error = await client.getTask(KEY, "t1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      code: "rate_limited",
      message: "Slow down",
      retryAfterMs: 120_000,
    });
    expect(server.requests).toHaveLength(1);
  });

  it("are retried after a connection reset", async () => {
    failThen([destroy], TASK);
    await expect(client.getTask(KEY, "t1")).resolves.toMatchObject({ task_id: "t1" });
    expect(server.requests).toHaveLength(2);
  });

  it("give up after the last attempt with the typed error", async () => {
    server.handle((_req, res) => {
      res.writeHead(502, { "content-type": "text/html", "x-request-id": "up-9" });
      res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
    });
    const error = await client.getTask(KEY, "t1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, code: "internal", requestId: "up-9" });
    expect((error as Error).message).toContain("HTTP 502 Bad Gateway");
    expect((error as Error).message).toContain("<h1>502 Bad Gateway</h1>");
    expect(server.requests).toHaveLength(3);
  });

  it("are not retried on a 4xx, which keeps the backend's code and message", async () => {
    server.handle((_req, res) =>
      json(res, 404, { error: { code: "task_not_found", message: "No task t9" } }),
    );
    const error = await client.getTask(KEY, "t9").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: "task_not_found", message: "No task t9" });
    expect(server.requests).toHaveLength(1);
  });

  it("time out when the backend hangs, without a retry", async () => {
    server.handle(() => {});
    const error = await client.getTask(KEY, "t1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: "headers", code: "timeout" });
    expect(server.requests).toHaveLength(1);
  });

  it("time out when the body stalls", async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"task_id":');
    });
    const error = await client.getTask(KEY, "t1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: "body" });
  });

  it("refuse a body over the size cap, declared or streamed", async () => {
    const big = JSON.stringify({ ...TASK, padding: "x".repeat(10_000) });
    server.handle((_req, res) => json(res, 200, JSON.parse(big)));
    const declared = await client.getTask(KEY, "t1").catch((e: unknown) => e);
    expect(declared).toBeInstanceOf(UnexpectedResponseError);
    expect(declared).toMatchObject({ code: "response_too_large" });
    server.handle((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      for (let i = 0; i < 10; i++) res.write("x".repeat(1000));
      res.end();
    });
    const streamed = await client.getTask(KEY, "t1").catch((e: unknown) => e);
    expect(streamed).toMatchObject({ code: "response_too_large" });
  });

  it("reject a 200 that is not JSON or lacks the task fields", async () => {
    server.handle((_req, res) => res.writeHead(200).end("<html>login</html>"));
    await expect(client.getTask(KEY, "t1")).rejects.toMatchObject({ code: "invalid_response" });
    server.handle((_req, res) => json(res, 200, { hello: "world" }));
    await expect(client.getTask(KEY, "t1")).rejects.toThrow(/lacks "task_id"/);
  });

  it("scrub the key from an error body that echoes it", async () => {
    server.handle((_req, res) =>
      json(res, 401, { error: { code: "unauthorized", message: `Unknown key ${KEY}` } }),
    );
    const error = await client.getAccount(KEY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toBe("Unknown key [redacted]");
    expect(JSON.stringify((error as AuthenticationError).toJSON())).not.toContain(KEY);
  });

  it("stop at once when the caller aborts", async () => {
    server.handle(() => {});
    const controller = new AbortController();
    const pending = client.getTask(KEY, "t1", undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
  });
});

describe("submit", () => {
  const input = { urls: ["https://example.com/p/1"] };

  it("posts the input to /v1/{platform}/{resource}", async () => {
    server.handle((_req, res) => json(res, 202, { task_id: "t7", status: "queued" }));
    const submitted = await client.submit(KEY, "social-network/comments", input);
    expect(submitted).toEqual({ task_id: "t7", status: "queued" });
    expect(server.requests[0]).toMatchObject({
      method: "POST",
      url: "/v1/social-network/comments",
      body: JSON.stringify(input),
    });
  });

  it("is sent once and reports an unknown outcome after a 500", async () => {
    server.handle((_req, res) => json(res, 500, { error: { code: "internal", message: "Boom" } }));
    const error = await client.submit(KEY, "social-network/comments", input).catch((e) => e);
    expect(error).toBeInstanceOf(SubmitOutcomeUnknownError);
    expect(error).toMatchObject({ code: "submit_outcome_unknown", status: 500, retryable: false });
    expect((error as Error).message).toContain("Boom");
    expect((error as Error).cause).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  it("is sent once and reports an unknown outcome after a reset", async () => {
    server.handle((_req, res) => destroy(res));
    const error = await client.submit(KEY, "social-network/comments", input).catch((e) => e);
    expect(error).toBeInstanceOf(SubmitOutcomeUnknownError);
    expect((error as Error).cause).toBeInstanceOf(ConnectionError);
    expect(server.requests).toHaveLength(1);
  });

  it("is sent once and reports an unknown outcome after a timeout", async () => {
    server.handle(() => {});
    const error = await client.submit(KEY, "social-network/comments", input).catch((e) => e);
    expect(error).toBeInstanceOf(SubmitOutcomeUnknownError);
    expect((error as Error).cause).toBeInstanceOf(TimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it("reports an unknown outcome when cancelled in flight", async () => {
    server.handle(() => {});
    const controller = new AbortController();
    const pending = client.submit(KEY, "social-network/comments", input, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(SubmitOutcomeUnknownError);
  });

  it("reports an unknown outcome for an unreadable 2xx", async () => {
    server.handle((_req, res) => res.writeHead(202).end("accepted"));
    const error = await client.submit(KEY, "social-network/comments", input).catch((e) => e);
    expect(error).toBeInstanceOf(SubmitOutcomeUnknownError);
    expect(server.requests).toHaveLength(1);
  });

  it("keeps a refusal typed: no task exists, nothing is retried", async () => {
    const details = [{ path: "urls", message: "must NOT have fewer than 1 items" }];
    server.handle((_req, res) =>
      json(res, 422, { error: { code: "invalid_input", message: "Input is invalid", details } }),
    );
    const invalid = await client.submit(KEY, "social-network/comments", input).catch((e) => e);
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).toMatchObject({ code: "invalid_input", details });
    server.handle((_req, res) => json(res, 429, {}, { "retry-after": "0" }));
    const limited = await client.submit(KEY, "social-network/comments", input).catch((e) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(2);
  });

  it("refuses a malformed endpoint id without sending anything", async () => {
    await expect(client.submit(KEY, "comments", input)).rejects.toMatchObject({
      code: "invalid_endpoint",
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe("download and ping", () => {
  it("download fetches a public URL without the Authorization header", async () => {
    server.handle((_req, res) => res.writeHead(200).end(Buffer.from([1, 2, 3])));
    const bytes = await client.download(`${server.url}/files/t1.jsonl.gz?sig=abc`);
    expect([...bytes]).toEqual([1, 2, 3]);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    await expect(client.download("file:///etc/passwd")).rejects.toMatchObject({
      code: "invalid_url",
    });
  });

  it("ping counts any HTTP answer as reachable and sends no key", async () => {
    server.handle((_req, res) => json(res, 401, {}));
    await expect(client.ping()).resolves.toEqual({ reachable: true, detail: "HTTP 401" });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe("an unreachable backend", () => {
  it("gives a connection error, for reads and for submits", async () => {
    const port = await closedPort();
    const offline = createBackendClient({ baseUrl: `http://127.0.0.1:${port}`, ...TIMEOUTS });
    try {
      const read = await offline.getTask(KEY, "t1").catch((e: unknown) => e);
      expect(read).toBeInstanceOf(ConnectionError);
      expect(read).toMatchObject({ networkCode: "ECONNREFUSED", retryable: true });
      expect((read as Error).message).toMatch(/^Backend unreachable at http:\/\/127\.0\.0\.1:\d+/);
      const submit = await offline.submit(KEY, "a/b", {}).catch((e: unknown) => e);
      expect(submit).toBeInstanceOf(ConnectionError);
      await expect(offline.ping()).resolves.toMatchObject({ reachable: false });
    } finally {
      await offline.close();
    }
  });
});
