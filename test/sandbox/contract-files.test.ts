import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskFiles, TaskRead } from "../../src/backend/types.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { call, finishedTask, startTestSandbox, submit } from "./helpers.js";
import { until } from "./until.js";

describe("sandbox contract: files", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ slowMs: 60_000 });
  });
  afterAll(() => sandbox.close());

  it("answers 409 task_not_ready before success and for a failed task", async () => {
    const running = await submit(sandbox, "video-network/search", { query: "sandbox:slow" });
    const failed = await finishedTask(sandbox, "video-network/search", { query: "sandbox:fail" });
    for (const taskId of [running.body.task_id, failed]) {
      const answer = await call(sandbox, "GET", `/v1/tasks/${taskId}/files`);
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({
        error: { code: "task_not_ready", message: expect.any(String) },
      });
    }
  });

  it("lists one raw_jsonl file under the storage URL, downloadable without a key, holding every record", async () => {
    const taskId = await finishedTask(sandbox, "video-network/search", {
      query: "cats",
      results_limit: 1200,
    });
    const listing = await call<TaskFiles>(sandbox, "GET", `/v1/tasks/${taskId}/files`);
    expect(listing.status).toBe(200);
    expect(listing.body).toEqual({
      task_id: taskId,
      files: [
        {
          file_type: "raw_jsonl",
          public_url: expect.stringMatching(new RegExp(`^${sandbox.url}/storage/`)),
        },
      ],
    });
    const url = listing.body.files[0]?.public_url ?? "";
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/gzip");
    const lines = gunzipSync(Buffer.from(await download.arrayBuffer()))
      .toString()
      .trimEnd()
      .split("\n");
    const records = lines.map((line) => JSON.parse(line));
    const page = await call<TaskRead>(sandbox, "GET", `/v1/tasks/${taskId}?limit=1000`);
    expect(records).toHaveLength(1200);
    expect(records.slice(0, 1000)).toEqual(page.body.results?.items);
  });

  it("refuses a storage URL with a forged token or another task's name", async () => {
    const taskId = await finishedTask(sandbox, "video-network/search", { query: "dogs" });
    const listing = await call<TaskFiles>(sandbox, "GET", `/v1/tasks/${taskId}/files`);
    const url = new URL(listing.body.files[0]?.public_url ?? "");
    const [, , token, name] = url.pathname.split("/");
    for (const path of [
      `/storage/${"0".repeat(32)}/${name}`,
      `/storage/${token}/tsk_000000000000000000000000.jsonl.gz`,
      `/storage/${token}`,
    ]) {
      const answer = await fetch(`${sandbox.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toMatch(
        /not_found$/,
      );
    }
  });

  it("stops serving a file once its task expired", async () => {
    const shortLived = await startTestSandbox({ retentionMs: 100 });
    const taskId = await finishedTask(shortLived, "video-network/search", { query: "birds" });
    const listing = await call<TaskFiles>(shortLived, "GET", `/v1/tasks/${taskId}/files`);
    await until(() => shortLived.stats().tasksLive === 0, "the task expired");
    const answer = await fetch(listing.body.files[0]?.public_url ?? "");
    expect(answer.status).toBe(404);
    await shortLived.close();
  });
});
