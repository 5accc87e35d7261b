import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResultRecord, TaskRead } from "../../src/backend/types.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import {
  call,
  finishedTask,
  OTHER_KEY,
  startTestSandbox,
  submit,
  waitForStatus,
} from "./helpers.js";
import { until } from "./until.js";

async function readAll(sandbox: RunningSandbox, taskId: string, limit: number) {
  const records: ResultRecord[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 5000; page++) {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor !== null) query.set("cursor", cursor);
    const answer = await call<TaskRead>(sandbox, "GET", `/v1/tasks/${taskId}?${query}`);
    expect(answer.status).toBe(200);
    const results = answer.body.results;
    if (!results) throw new Error("no results on a succeeded task");
    expect(results.items.length).toBeLessThanOrEqual(limit);
    records.push(...results.items);
    expect(results.has_more).toBe(results.next_cursor !== null);
    if (!results.has_more) return records;
    cursor = results.next_cursor;
  }
  throw new Error("paging never ended");
}

describe("sandbox contract: task reads and pages", () => {
  let sandbox: RunningSandbox;
  let bigTask: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    bigTask = await finishedTask(sandbox, "microblog-network/search", {
      query: "coffee",
      results_limit: 2000,
    });
  });
  afterAll(() => sandbox.close());

  it("goes queued -> running -> succeeded, with results only once succeeded", async () => {
    const slow = await startTestSandbox({ queuedMs: 150, runningMs: 150 });
    const { body } = await submit(slow, "video-network/videos", {
      urls: ["https://v.example/1", "https://v.example/2"],
    });
    expect(body.status).toBe("queued");
    const seen = new Set<string>();
    for (let attempt = 0; attempt < 500; attempt++) {
      const read = await call<TaskRead>(slow, "GET", `/v1/tasks/${body.task_id}`);
      seen.add(read.body.status);
      if (read.body.status !== "succeeded") {
        expect(read.body.results).toBeUndefined();
        expect(read.body.result_count).toBeNull();
        expect(read.body.finished_time).toBeNull();
      }
      if (read.body.status === "succeeded") {
        expect(read.body).toEqual({
          task_id: body.task_id,
          endpoint: "video-network/videos",
          status: "succeeded",
          created_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          finished_time: expect.stringMatching(/Z$/),
          result_count: 2,
          error_message: null,
          results: { items: expect.any(Array), next_cursor: null, has_more: false },
        });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect([...seen]).toEqual(["queued", "running", "succeeded"]);
    await slow.close();
  });

  it.each([1000, 333, 100, 7])(
    "pages through 2,000 records with limit %i, each once, in one order",
    async (limit) => {
      const records = await readAll(sandbox, bigTask, limit);
      expect(records).toHaveLength(2000);
      expect(new Set(records.map((record) => record.id)).size).toBe(2000);
      expect(records).toEqual(await readAll(sandbox, bigTask, 1000));
    },
  );

  it("reads the default page of 100 and keeps the order when the limit changes between pages", async () => {
    const first = await call<TaskRead>(sandbox, "GET", `/v1/tasks/${bigTask}`);
    expect(first.body.result_count).toBe(2000);
    expect(first.body.results?.items).toHaveLength(100);
    const cursor = encodeURIComponent(first.body.results?.next_cursor ?? "");
    const next = await call<TaskRead>(
      sandbox,
      "GET",
      `/v1/tasks/${bigTask}?limit=250&cursor=${cursor}`,
    );
    const all = await readAll(sandbox, bigTask, 1000);
    expect(next.body.results?.items).toEqual(all.slice(100, 350));
  });

  it.each(["0", "1001", "abc", "-5", "2.5", ""])(
    "refuses limit=%j with 400 invalid_query",
    async (limit) => {
      const answer = await call(sandbox, "GET", `/v1/tasks/${bigTask}?limit=${limit}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe("invalid_query");
      expect(answer.body.error.details).toEqual([
        { path: "limit", message: expect.stringContaining("1000") },
      ]);
    },
  );

  it("refuses a forged cursor, an edited one and one from another task with 400 invalid_cursor", async () => {
    const first = await call<TaskRead>(sandbox, "GET", `/v1/tasks/${bigTask}`);
    const genuine = first.body.results?.next_cursor ?? "";
    const [payload = "", signature = ""] = genuine.split(".");
    const edited = `${Buffer.from(`${bigTask}:1500`).toString("base64url")}.${signature}`;
    const other = await finishedTask(sandbox, "microblog-network/search", {
      query: "tea",
      results_limit: 300,
    });
    const otherCursor = (await call<TaskRead>(sandbox, "GET", `/v1/tasks/${other}`)).body.results
      ?.next_cursor;
    for (const cursor of ["forged", `${payload}.AAAA`, edited, otherCursor ?? ""]) {
      const answer = await call(
        sandbox,
        "GET",
        `/v1/tasks/${bigTask}?cursor=${encodeURIComponent(cursor)}`,
      );
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe("invalid_cursor");
    }
  });

  it("yields as many records as results_limit or the urls/usernames asked, of the endpoint's kind", async () => {
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      ["professional-network/jobs", { query: "engineer", results_limit: 3 }, 3, "job"],
      ["photo-network/followers-count", { usernames: ["a", "b", "c", "d"] }, 4, "follower_count"],
      ["social-network-ad-library/ad", { url: "https://ads.example/1" }, 1, "ad"],
      [
        "social-network-marketplace/item",
        { urls: ["https://m.example/1", "https://m.example/2"] },
        2,
        "listing",
      ],
    ];
    for (const [endpointId, input, count, type] of cases) {
      const taskId = await finishedTask(sandbox, endpointId, input);
      const read = await call<TaskRead>(sandbox, "GET", `/v1/tasks/${taskId}?limit=1000`);
      expect(read.body.result_count, endpointId).toBe(count);
      expect(read.body.results?.items.map((item) => item.type)).toEqual(Array(count).fill(type));
    }
  });

  it("gives the same records for the same input whatever the key, other records for another input", async () => {
    const input = { query: "coffee", results_limit: 20 };
    const first = await finishedTask(sandbox, "microblog-network/search", input);
    const submitted = await submit(sandbox, "microblog-network/search", input, OTHER_KEY);
    const second = await waitForStatus(sandbox, submitted.body.task_id, ["succeeded"], OTHER_KEY);
    const firstRead = await call<TaskRead>(sandbox, "GET", `/v1/tasks/${first}`);
    expect(second.body.results.items).toEqual(firstRead.body.results?.items);
    const otherInput = await finishedTask(sandbox, "microblog-network/search", {
      ...input,
      query: "tea",
    });
    const otherRead = await call<TaskRead>(sandbox, "GET", `/v1/tasks/${otherInput}`);
    expect(otherRead.body.results?.items[0]).not.toEqual(firstRead.body.results?.items[0]);
  });
});

describe("sandbox contract: test inputs", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ slowMs: 60_000 });
  });
  afterAll(() => sandbox.close());

  it("fails a task whose input holds sandbox:fail, with an error_message and no results", async () => {
    const taskId = await finishedTask(sandbox, "social-network/comments", {
      urls: ["sandbox:fail"],
    });
    const read = await call<TaskRead>(sandbox, "GET", `/v1/tasks/${taskId}`);
    expect(read.body).toMatchObject({
      status: "failed",
      result_count: 0,
      error_message: expect.stringContaining("sandbox:fail"),
    });
    expect(read.body.finished_time).toEqual(expect.any(String));
    expect(read.body.results).toBeUndefined();
  });

  it("succeeds with zero records for sandbox:empty", async () => {
    const taskId = await finishedTask(sandbox, "microblog-network/search", {
      query: "sandbox:empty",
      results_limit: 50,
    });
    const read = await call<TaskRead>(sandbox, "GET", `/v1/tasks/${taskId}`);
    expect(read.body).toMatchObject({ status: "succeeded", result_count: 0 });
    expect(read.body.results).toEqual({ items: [], next_cursor: null, has_more: false });
  });

  it("keeps a sandbox:slow task running while an ordinary one finishes", async () => {
    const slow = await submit(sandbox, "microblog-network/search", { query: "sandbox:slow" });
    await finishedTask(sandbox, "microblog-network/search", { query: "fast" });
    const read = await call<TaskRead>(sandbox, "GET", `/v1/tasks/${slow.body.task_id}`);
    expect(read.body.status).toBe("running");
  });

  it("fails tasks at random at the configured failure rate", async () => {
    const failing = await startTestSandbox({ failureRate: 1 });
    const taskId = await finishedTask(failing, "microblog-network/search", { query: "x" });
    const read = await call<TaskRead>(failing, "GET", `/v1/tasks/${taskId}`);
    expect(read.body.status).toBe("failed");
    expect(read.body.error_message).toEqual(expect.any(String));
    await failing.close();
  });
});

describe("sandbox contract: retention", () => {
  it("forgets finished tasks after the retention, so memory holds only live ones", async () => {
    const sandbox = await startTestSandbox({ retentionMs: 50 });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++)
      ids.push(
        (await submit(sandbox, "microblog-network/search", { query: `q${i}` })).body.task_id,
      );
    await until(() => sandbox.stats().tasksLive === 0, "every task expired");
    expect(sandbox.stats()).toMatchObject({ tasksCreated: 20, tasksLive: 0, tasksExpired: 20 });
    const read = await call(sandbox, "GET", `/v1/tasks/${ids[0]}`);
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe("task_not_found");
    await sandbox.close();
  });
});
