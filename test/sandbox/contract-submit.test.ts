import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { type Answer, account, call, KEY, startTestSandbox, submit } from "./helpers.js";

const COMMENTS = "/v1/social-network/comments";

describe("sandbox contract: submit", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ queuedMs: 60_000 });
  });
  afterAll(() => sandbox.close());

  it("answers 202 with task_id and status, and where to read the task", async () => {
    const answer = await submit(sandbox, "social-network/comments", {
      urls: ["https://x.example/p/1"],
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({
      task_id: expect.stringMatching(/^tsk_[0-9a-f]{24}$/),
      status: "queued",
    });
    expect(answer.headers.get("location")).toBe(`/v1/tasks/${answer.body.task_id}`);
  });

  const badRequests: Array<[string, Parameters<typeof call>[3], number, string]> = [
    ["invalid JSON", { rawBody: '{"urls": [' }, 400, "invalid_json"],
    ["an empty body", { rawBody: "" }, 400, "invalid_json"],
    [
      "a text/plain body",
      { rawBody: "{}", contentType: "text/plain" },
      415,
      "unsupported_media_type",
    ],
    [
      "a form body",
      { rawBody: "a=1", contentType: "application/x-www-form-urlencoded" },
      415,
      "unsupported_media_type",
    ],
    [
      "a latin-1 body",
      { rawBody: "{}", contentType: "application/json; charset=latin1" },
      415,
      "unsupported_media_type",
    ],
    ["a body over 1 MiB", { body: { urls: ["x".repeat(1024 * 1024)] } }, 413, "payload_too_large"],
    ["a JSON array", { body: [1] }, 422, "invalid_input"],
    ["a missing required field", { body: {} }, 422, "invalid_input"],
  ];

  it.each(badRequests)(
    "refuses %s with %i %s, creating no task",
    async (_label, options, status, code) => {
      const before = sandbox.stats().tasksCreated;
      const answer = await call(sandbox, "POST", COMMENTS, options);
      expect(answer.status).toBe(status);
      expect(answer.body.error).toEqual(
        expect.objectContaining({ code, message: expect.any(String) }),
      );
      expect(sandbox.stats().tasksCreated).toBe(before);
    },
  );

  it("lists every schema violation by path with 422 invalid_input", async () => {
    const answer = await call(sandbox, "POST", "/v1/social-network-marketplace/search", {
      body: { latitude: 91, longitude: -200, results_limit: 0, colour: "red" },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe("invalid_input");
    const paths = (answer.body.error.details as Array<{ path: string; message: string }>).map(
      (d) => d.path,
    );
    expect(paths).toEqual(
      expect.arrayContaining(["query", "latitude", "longitude", "results_limit", "colour"]),
    );
    for (const detail of answer.body.error.details)
      expect(detail.message).toEqual(expect.any(String));
  });

  it("refuses an anyOf with none of its alternatives", async () => {
    const answer = await call(sandbox, "POST", "/v1/social-network/pages", {
      body: { results_limit: 5 },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual([
      { path: "(root)", message: expect.stringMatching(/query/) },
    ]);
  });

  it("refuses a callback_url that is not an http(s) URL", async () => {
    const answer = await call(sandbox, "POST", COMMENTS, {
      body: { urls: ["https://x.example/p/1"], callback_url: "mailto:ops@example.com" },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details).toEqual([
      { path: "callback_url", message: expect.any(String) },
    ]);
  });

  it("refuses callback_url on an endpoint without callbacks", async () => {
    const answer = await call(sandbox, "POST", "/v1/social-network-ad-library/ad", {
      body: { url: "https://x.example/ad/1", callback_url: "http://127.0.0.1:9/hook" },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.error.details.map((d: { path: string }) => d.path)).toContain(
      "callback_url",
    );
  });

  it("charges nothing for any refused submit", async () => {
    const before = await account(sandbox);
    for (const [, options] of badRequests) await call(sandbox, "POST", COMMENTS, options);
    expect(await account(sandbox)).toEqual(before);
  });
});

describe("sandbox contract: submit answers running when nothing queues", () => {
  it("reports running at submit", async () => {
    const sandbox = await startTestSandbox({ queuedMs: 0, runningMs: 60_000 });
    const answer = await submit(sandbox, "social-network/comments", {
      urls: ["https://x.example/p/1"],
    });
    expect(answer.body.status).toBe("running");
    await sandbox.close();
  });
});

describe("sandbox contract: rate limit", () => {
  it("answers 429 rate_limited with Retry-After beyond the limit, per key", async () => {
    const sandbox = await startTestSandbox({ rateLimit: 2 });
    const statuses: number[] = [];
    let limited: Answer | undefined;
    for (let i = 0; i < 5; i++) {
      const answer = await call(sandbox, "GET", "/v1/account");
      statuses.push(answer.status);
      if (answer.status === 429) limited = answer;
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(limited?.body.error.code).toBe("rate_limited");
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(
      (await call(sandbox, "GET", "/v1/account", { key: sandbox.keys[1] ?? KEY })).status,
    ).toBe(200);
    await sandbox.close();
  });
});
