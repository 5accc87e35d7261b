import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/index.js";
import {
  call,
  catalog,
  finishedTask,
  KEY,
  OTHER_KEY,
  startTestSandbox,
  submit,
} from "./helpers.js";

describe("sandbox contract: authentication and routing", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  it("listens on 127.0.0.1 and reports its keys", () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.keys).toEqual([KEY, OTHER_KEY]);
  });

  it.each([
    ["no header", null],
    ["an unknown key", "not-a-key"],
  ])("answers 401 with %s, without echoing the key", async (_label, key) => {
    for (const [method, path] of [
      ["GET", "/v1/account"],
      ["GET", "/v1/catalog"],
      ["GET", "/v1/tasks/tsk_1"],
      ["POST", "/v1/social-network/comments"],
    ] as const) {
      const answer = await call(sandbox, method, path, {
        key,
        body: method === "POST" ? {} : undefined,
      });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(answer.body).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
      expect(JSON.stringify(answer.body)).not.toContain("not-a-key");
    }
  });

  it("refuses a malformed Authorization header", async () => {
    const response = await fetch(`${sandbox.url}/v1/account`, {
      headers: { authorization: `Basic ${KEY}` },
    });
    expect(response.status).toBe(401);
  });

  it("answers an unknown route with a JSON 404 in the error shape", async () => {
    for (const [method, path] of [
      ["GET", "/v1/nothing"],
      ["DELETE", "/v1/tasks/tsk_1"],
      ["GET", "/v1/social-network/comments"],
      ["POST", "/v1/no-platform/no-resource"],
      ["POST", "/v1/tasks/tsk_1"],
      ["GET", "/elsewhere"],
    ] as const) {
      const answer = await call(sandbox, method, path, {
        body: method === "POST" ? {} : undefined,
      });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      expect(answer.body.error.code).toBe("endpoint_not_found");
    }
  });

  it("answers an unexpected failure with 500 internal in the error shape, logged, without its cause", async () => {
    const logs: string[] = [];
    const broken = await startSandbox({
      catalog: {
        ...catalog,
        validate() {
          throw new Error("schema store offline");
        },
      },
      keys: [KEY],
      logger: createLogger("error", { write: (line: string) => void logs.push(line) }),
    });
    try {
      const before = broken.stats().tasksCreated;
      const answer = await submit(broken, "social-network/comments", {
        urls: ["https://x.example/p/1"],
      });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ error: { code: "internal", message: expect.any(String) } });
      expect(JSON.stringify(answer.body)).not.toContain("schema store offline");
      expect(logs.join("")).toContain("schema store offline");
      expect(broken.stats().tasksCreated).toBe(before);
    } finally {
      await broken.close();
    }
  });

  it("keeps each key's tasks its own: another key's task is a 404 like a missing one", async () => {
    const taskId = await finishedTask(sandbox, "social-network/comments", {
      urls: ["https://x.example/p/1"],
    });
    const foreign = await call(sandbox, "GET", `/v1/tasks/${taskId}`, { key: OTHER_KEY });
    const missing = await call(sandbox, "GET", "/v1/tasks/tsk_000000000000000000000000", {
      key: OTHER_KEY,
    });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body.error.code).toBe("task_not_found");
    expect(Object.keys(foreign.body.error)).toEqual(Object.keys(missing.body.error));
    const files = await call(sandbox, "GET", `/v1/tasks/${taskId}/files`, { key: OTHER_KEY });
    expect(files.status).toBe(404);
    expect((await call(sandbox, "GET", `/v1/tasks/${taskId}`)).status).toBe(200);
  });

  it("counts tasks per key", async () => {
    const before = sandbox.stats();
    await submit(
      sandbox,
      "social-network/comments",
      { urls: ["https://x.example/p/2"] },
      OTHER_KEY,
    );
    const after = sandbox.stats();
    expect(after.tasksCreated).toBe(before.tasksCreated + 1);
    expect(after.tasksCreatedByKey[OTHER_KEY]).toBe((before.tasksCreatedByKey[OTHER_KEY] ?? 0) + 1);
    expect(after.tasksCreatedByKey[KEY]).toBe(before.tasksCreatedByKey[KEY]);
  });

  it("serves the catalog", async () => {
    const answer = await call(sandbox, "GET", "/v1/catalog");
    expect(answer.status).toBe(200);
    expect(answer.body.endpoints).toHaveLength(51);
    expect(answer.body.schema_version).toEqual(expect.any(String));
  });

  it("shows an account by fingerprint, never the key", async () => {
    const one = await call(sandbox, "GET", "/v1/account");
    const two = await call(sandbox, "GET", "/v1/account", { key: OTHER_KEY });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      key_id: expect.stringMatching(/^key_[0-9a-f]{16}$/),
      credits: { balance: expect.any(Number), used: expect.any(Number) },
      limits: expect.objectContaining({ page_limit_max: 1000, page_limit_default: 100 }),
    });
    expect(two.body.key_id).not.toBe(one.body.key_id);
    expect(JSON.stringify(one.body)).not.toContain(KEY);
  });
});
