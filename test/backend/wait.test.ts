import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AbortedError,
  ConnectionError,
  createBackendClient,
  NotFoundError,
} from "../../src/backend/index.js";
import type { TaskRead, TaskStatus } from "../../src/backend/types.js";
import { type TaskReader, waitForTask } from "../../src/backend/wait.js";
import { json, startScriptedServer } from "./scripted-server.js";

function task(status: TaskStatus): TaskRead {
  return {
    task_id: "t1",
    endpoint: "social-network/comments",
    status,
    created_time: "2030-01-01T00:00:00Z",
    finished_time: null,
    result_count: null,
    error_message: null,
  };
}

/** A reader that reports `running` until read number `terminalAt`, recording when it was read. */
function scriptedReader(terminalAt = Number.POSITIVE_INFINITY) {
  const readsAt: number[] = [];
  const queries: unknown[] = [];
  const reader: TaskReader = {
    async getTask(_key, _taskId, query) {
      readsAt.push(Date.now());
      queries.push(query);
      return task(readsAt.length >= terminalAt ? "succeeded" : "running");
    },
  };
  return { reader, readsAt, queries };
}

describe("waitForTask (fake timers)", () => {
  let start: number;
  beforeEach(() => {
    vi.useFakeTimers();
    start = Date.UTC(2030, 0, 1);
    vi.setSystemTime(start);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads every 0.2 s, then every 10 % of the time waited, up to 5 s", async () => {
    const { reader, readsAt, queries } = scriptedReader(50);
    const pending = waitForTask(reader, "k", "t1", { deadlineMs: start + 120_000, limit: 20 });
    await vi.runAllTimersAsync();
    const result = await pending;
    expect(result).toMatchObject({ polls: 50, timedOut: false, aborted: false });
    expect(result.task.status).toBe("succeeded");
    const at = readsAt.map((time) => time - start);
    expect(at.slice(0, 13)).toEqual([
      0, 200, 400, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2420,
    ]);
    for (let index = 1; index < at.length; index++) {
      const waited = (at[index] ?? 0) - (at[index - 1] ?? 0);
      // A task that finished just after a read is seen within max(0.2 s, 10 % of the time waited).
      expect(waited).toBeLessThanOrEqual(Math.max(200, Math.round(0.1 * (at[index - 1] ?? 0))));
      expect(waited).toBeGreaterThanOrEqual(200);
    }
    expect((at.at(-1) ?? 0) - (at.at(-2) ?? 0)).toBe(5_000);
    expect(queries.every((query) => JSON.stringify(query) === '{"limit":20}')).toBe(true);
  });

  it("costs a number of reads logarithmic in the time waited", async () => {
    const readsWithin = async (ms: number) => {
      const { reader, readsAt } = scriptedReader();
      const pending = waitForTask(reader, "k", "t1", { deadlineMs: Date.now() + ms });
      await vi.runAllTimersAsync();
      await pending;
      return readsAt.length;
    };
    const [two, twenty, fifty] = [
      await readsWithin(2_000),
      await readsWithin(20_000),
      await readsWithin(50_000),
    ];
    // Ten times longer adds a constant number of reads (about 24), it does not multiply them.
    expect(twenty - two).toBeLessThanOrEqual(26);
    expect(fifty - twenty).toBeLessThanOrEqual(12);
  });

  it("never sleeps past the deadline: the last read happens at the deadline", async () => {
    const { reader, readsAt } = scriptedReader();
    const pending = waitForTask(reader, "k", "t1", { deadlineMs: start + 3_000 });
    await vi.runAllTimersAsync();
    const result = await pending;
    expect(result).toMatchObject({ polls: 16, timedOut: true, aborted: false });
    expect(result.task.status).toBe("running");
    expect(readsAt.map((at) => at - start).slice(-6)).toEqual([2000, 2200, 2420, 2662, 2928, 3000]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("reads once when the deadline has already passed", async () => {
    const { reader, readsAt } = scriptedReader();
    const result = await waitForTask(reader, "k", "t1", { deadlineMs: start - 1 });
    expect(result).toMatchObject({ polls: 1, timedOut: true });
    expect(readsAt).toHaveLength(1);
  });

  it("stops at once on abort and returns the last known state", async () => {
    const { reader, readsAt } = scriptedReader();
    const controller = new AbortController();
    const pending = waitForTask(reader, "k", "t1", {
      deadlineMs: start + 60_000,
      signal: controller.signal,
    });
    await vi.advanceTimersByTimeAsync(900);
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ polls: 5, aborted: true, timedOut: false });
    expect(result.task.status).toBe("running");
    expect(Date.now() - start).toBe(900);
    expect(vi.getTimerCount()).toBe(0);
    expect(readsAt).toHaveLength(5);
  });

  it("throws AbortedError when aborted before any state was read", async () => {
    const { reader, readsAt } = scriptedReader();
    const signal = AbortSignal.abort();
    await expect(
      waitForTask(reader, "k", "t1", { deadlineMs: start + 1_000, signal }),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(readsAt).toHaveLength(0);
  });

  it("reports every poll with its number and elapsed time", async () => {
    const { reader } = scriptedReader(3);
    const seen: [string, number, number][] = [];
    const pending = waitForTask(reader, "k", "t1", {
      deadlineMs: start + 60_000,
      onPoll: (current, poll, elapsedMs) => {
        seen.push([current.status, poll, elapsedMs]);
      },
    });
    await vi.runAllTimersAsync();
    await pending;
    expect(seen).toEqual([
      ["running", 1, 0],
      ["running", 2, 200],
      ["succeeded", 3, 400],
    ]);
  });

  it("follows a custom backoff", async () => {
    const { reader, readsAt } = scriptedReader(4);
    const pending = waitForTask(reader, "k", "t1", {
      deadlineMs: start + 60_000,
      backoff: { initialMs: 100, maxMs: 150, factor: 3 },
    });
    await vi.runAllTimersAsync();
    await pending;
    expect(readsAt.map((at) => at - start)).toEqual([0, 100, 250, 400]);
  });

  /** Reads fail as `failures[n]` says for read n (0-based), else answer as scriptedReader does. */
  function failingReader(failures: Record<number, Error>, terminalAt = Number.POSITIVE_INFINITY) {
    let reads = 0;
    const reader: TaskReader = {
      async getTask() {
        const failure = failures[reads];
        reads += 1;
        if (failure) throw failure;
        return task(reads >= terminalAt ? "succeeded" : "running");
      },
    };
    return { reader, reads: () => reads };
  }

  const unreachable = () =>
    new ConnectionError({ code: "connection_error", message: "Backend unreachable" });

  it("rides out transient read failures while budget remains", async () => {
    const { reader, reads } = failingReader({ 1: unreachable(), 2: unreachable() }, 5);
    const pending = waitForTask(reader, "k", "t1", { deadlineMs: start + 60_000 });
    await vi.runAllTimersAsync();
    const result = await pending;
    expect(result).toMatchObject({ polls: 3, timedOut: false });
    expect(result.task.status).toBe("succeeded");
    expect(reads()).toBe(5);
  });

  it("throws the failure when the last read before the deadline failed", async () => {
    const { reader } = failingReader({ 1: unreachable(), 2: unreachable(), 3: unreachable() });
    // Reads at 0, 0.2 and 0.4 s, and the last one at the deadline: all but the first fail.
    const pending = waitForTask(reader, "k", "t1", { deadlineMs: start + 500 });
    const settled = pending.catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await settled).toBeInstanceOf(ConnectionError);
  });

  it("throws a lasting failure (task not found) at once", async () => {
    const gone = new NotFoundError({ code: "task_not_found", message: "Task not found" });
    const { reader, reads } = failingReader({ 1: gone });
    const pending = waitForTask(reader, "k", "t1", { deadlineMs: start + 60_000 });
    const settled = pending.catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    expect(await settled).toBe(gone);
    expect(reads()).toBe(2);
  });

  it("refuses a duration passed as the deadline", async () => {
    const { reader } = scriptedReader();
    await expect(waitForTask(reader, "k", "t1", { deadlineMs: 20_000 })).rejects.toThrow(
      /absolute Date\.now\(\) time/,
    );
  });
});

describe("waitForTask over real HTTP", () => {
  it("polls the task until it succeeds, the final read carrying the first page", async () => {
    const server = await startScriptedServer();
    const client = createBackendClient({
      baseUrl: server.url,
      connectTimeoutMs: 1_000,
      headersTimeoutMs: 2_000,
      bodyTimeoutMs: 2_000,
      maxResponseBytes: 65_536,
    });
    server.handle((_req, res) => {
      const done = server.requests.length >= 3;
      const results = { items: [], next_cursor: null, has_more: false };
      json(res, 200, { ...task(done ? "succeeded" : "running"), ...(done && { results }) });
    });
    try {
      const result = await waitForTask(client, "k", "t1", {
        deadlineMs: Date.now() + 10_000,
        limit: 7,
        backoff: { initialMs: 10, maxMs: 20, factor: 2 },
      });
      expect(result).toMatchObject({ polls: 3, timedOut: false, aborted: false });
      expect(result.task.results).toEqual({ items: [], next_cursor: null, has_more: false });
      expect(server.requests.map((seen) => seen.url)).toEqual([
        "/v1/tasks/t1?limit=7",
        "/v1/tasks/t1?limit=7",
        "/v1/tasks/t1?limit=7",
      ]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
