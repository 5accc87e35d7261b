import { afterEach, describe, expect, it } from "vitest";
import type { TaskFiles } from "../../src/backend/types.js";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { call, startTestSandbox, submit, waitForStatus } from "./helpers.js";
import { type Receiver, startReceiver } from "./receiver.js";
import { until } from "./until.js";

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("sandbox contract: callbacks", () => {
  const opened: Array<RunningSandbox | Receiver> = [];
  const track = <T extends RunningSandbox | Receiver>(item: T): T => {
    opened.push(item);
    return item;
  };
  afterEach(async () => {
    for (const item of opened.splice(0)) await item.close();
  });

  it("POSTs one summary with every field after success", async () => {
    const receiver = track(await startReceiver());
    const sandbox = track(await startTestSandbox());
    const { status, body } = await submit(sandbox, "microblog-network/search", {
      query: "coffee",
      results_limit: 3,
      callback_url: receiver.url,
    });
    expect(status).toBe(202);
    const [received] = await receiver.waitFor(1);
    const files = await call<TaskFiles>(sandbox, "GET", `/v1/tasks/${body.task_id}/files`);
    expect(received?.method).toBe("POST");
    expect(received?.headers["content-type"]).toBe("application/json");
    expect(received?.body).toEqual({
      task_id: body.task_id,
      feature_code: expect.any(String),
      public_id: "microblog-network-search",
      agent: expect.any(String),
      supplier: expect.any(String),
      status: "succeeded",
      result_count: 3,
      output_summary: { files: files.body.files, result_count: 3 },
      error_message: null,
      created_time: expect.stringMatching(ISO_UTC),
      finished_time: expect.stringMatching(ISO_UTC),
    });
    const task = await waitForStatus(sandbox, body.task_id);
    expect((received?.body as { finished_time?: string } | undefined)?.finished_time).toBe(
      task.body.finished_time,
    );
    expect(sandbox.stats().callbacks).toEqual({ delivered: 1, failed: 0, pending: 0 });
  });

  it("reports a failure with its error_message and no files", async () => {
    const receiver = track(await startReceiver());
    const sandbox = track(await startTestSandbox());
    await submit(sandbox, "social-network/comments", {
      urls: ["sandbox:fail"],
      callback_url: receiver.url,
    });
    const [received] = await receiver.waitFor(1);
    expect(received?.body).toMatchObject({
      status: "failed",
      result_count: 0,
      output_summary: { files: [], result_count: 0 },
      error_message: expect.stringContaining("sandbox:fail"),
    });
  });

  it("retries a failing receiver with backoff while the task stays succeeded and readable", async () => {
    const receiver = track(await startReceiver((attempt) => (attempt < 3 ? 500 : 200)));
    const sandbox = track(await startTestSandbox({ callbackRetries: 3 }));
    const { body } = await submit(sandbox, "social-network/comments", {
      urls: ["https://x.example/p/1"],
      callback_url: receiver.url,
    });
    const task = await waitForStatus(sandbox, body.task_id);
    expect(task.body.status).toBe("succeeded");
    const attempts = await receiver.waitFor(3);
    expect(new Set(attempts.map((attempt) => JSON.stringify(attempt.body))).size).toBe(1);
  });

  it("never lets a hanging receiver block the task, other requests or close", async () => {
    const receiver = track(await startReceiver(() => "hang"));
    const sandbox = await startTestSandbox({ callbackTimeoutMs: 60_000 });
    const { body } = await submit(sandbox, "social-network/comments", {
      urls: ["https://x.example/p/1"],
      callback_url: receiver.url,
    });
    await receiver.waitFor(1);
    const task = await waitForStatus(sandbox, body.task_id);
    expect(task.body.status).toBe("succeeded");
    expect((await call(sandbox, "GET", `/v1/tasks/${body.task_id}/files`)).status).toBe(200);
    expect(sandbox.stats().callbacks.pending).toBe(1);
    await sandbox.close();
  });

  it("gives up on an unreachable receiver after its retries, without failing the task", async () => {
    const receiver = await startReceiver();
    const unreachable = receiver.url;
    await receiver.close();
    const sandbox = track(await startTestSandbox({ callbackRetries: 2 }));
    const { body } = await submit(sandbox, "social-network/comments", {
      urls: ["https://x.example/p/1"],
      callback_url: unreachable,
    });
    expect((await waitForStatus(sandbox, body.task_id)).body.status).toBe("succeeded");
    await until(() => sandbox.stats().callbacks.failed === 1, "the callback given up");
    expect(sandbox.stats().callbacks).toEqual({ delivered: 0, failed: 1, pending: 0 });
  });
});
