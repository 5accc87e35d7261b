import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTaskEngine, type Task } from "../../src/sandbox/engine.js";
import { SandboxError } from "../../src/sandbox/errors.js";
import { endpointFixture, planFixture } from "./fixtures.js";

describe("task engine", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1) });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const makeEngine = (overrides: { retentionMs?: number; maxTasks?: number } = {}) => {
    const finished: Task[] = [];
    const engine = createTaskEngine({
      retentionMs: overrides.retentionMs ?? 1000,
      maxTasks: overrides.maxTasks ?? 100,
      now: Date.now,
      onFinished: (task) => finished.push(task),
    });
    return { engine, finished };
  };

  it("moves a task queued -> running -> succeeded on its timers, finishing once", () => {
    const { engine, finished } = makeEngine();
    const task = engine.submit(
      "k",
      endpointFixture(),
      planFixture({ queuedMs: 100, runningMs: 200 }),
    );
    expect(task.status).toBe("queued");
    vi.advanceTimersByTime(99);
    expect(task.status).toBe("queued");
    vi.advanceTimersByTime(1);
    expect(task.status).toBe("running");
    vi.advanceTimersByTime(199);
    expect(task.status).toBe("running");
    expect(finished).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(task.status).toBe("succeeded");
    expect(task.finishedAt).toBe(task.createdAt + 300);
    vi.advanceTimersByTime(500);
    expect(finished).toEqual([task]);
    engine.close();
  });

  it("answers running at once when nothing is queued, and fails a planned failure", () => {
    const { engine } = makeEngine();
    const task = engine.submit(
      "k",
      endpointFixture(),
      planFixture({ queuedMs: 0, failure: "boom" }),
    );
    expect(task.status).toBe("running");
    vi.advanceTimersByTime(200);
    expect(task.status).toBe("failed");
    engine.close();
  });

  it("keeps each key's tasks to itself", () => {
    const { engine } = makeEngine();
    const task = engine.submit("a", endpointFixture(), planFixture());
    expect(engine.find("a", task.id)).toBe(task);
    expect(engine.find("b", task.id)).toBeUndefined();
    expect(engine.findAnyKey(task.id)).toBe(task);
    expect(engine.stats().tasksCreatedByKey).toEqual({ a: 1 });
    engine.close();
  });

  it("forgets finished tasks after the retention, and not before", () => {
    const { engine } = makeEngine({ retentionMs: 1000 });
    const first = engine.submit("k", endpointFixture(), planFixture());
    vi.advanceTimersByTime(500);
    const second = engine.submit("k", endpointFixture(), planFixture());
    vi.advanceTimersByTime(800); // first finished at 300, expires at 1300
    expect(engine.find("k", first.id)).toBeUndefined();
    expect(engine.find("k", second.id)).toBe(second);
    vi.advanceTimersByTime(500); // second finished at 800, expires at 1800
    expect(engine.find("k", second.id)).toBeUndefined();
    expect(engine.stats()).toMatchObject({ tasksCreated: 2, tasksLive: 0, tasksExpired: 2 });
    engine.close();
  });

  it("holds a bounded number of tasks under a long stream of them", () => {
    const { engine } = makeEngine({ retentionMs: 1000, maxTasks: 1_000_000 });
    let peak = 0;
    for (let tick = 0; tick < 200; tick++) {
      for (let i = 0; i < 50; i++) engine.submit("k", endpointFixture(), planFixture());
      vi.advanceTimersByTime(100);
      peak = Math.max(peak, engine.stats().tasksLive);
    }
    // 50 tasks per 100 ms live for 300 ms + 1000 ms retention: about 650 at a time.
    expect(engine.stats().tasksCreated).toBe(10_000);
    expect(peak).toBeLessThanOrEqual(50 * 14);
    vi.advanceTimersByTime(2000);
    expect(engine.stats().tasksLive).toBe(0);
    engine.close();
  });

  it("drops the oldest finished task when full, and refuses with 429 when all are unfinished", () => {
    const { engine } = makeEngine({ maxTasks: 2, retentionMs: 60_000 });
    const oldest = engine.submit("k", endpointFixture(), planFixture());
    vi.advanceTimersByTime(300);
    const done = engine.submit("k", endpointFixture(), planFixture());
    vi.advanceTimersByTime(300);
    const fresh = engine.submit("k", endpointFixture(), planFixture());
    expect(engine.find("k", oldest.id)).toBeUndefined();
    expect(engine.find("k", done.id)).toBe(done);
    engine.submit("k", endpointFixture(), planFixture());
    expect(engine.find("k", done.id)).toBeUndefined();
    expect(fresh.status).toBe("queued");
    let refusal: unknown;
    try {
      engine.submit("k", endpointFixture(), planFixture());
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SandboxError);
    expect((refusal as SandboxError).status).toBe(429);
    expect((refusal as SandboxError).headers["Retry-After"]).toBe("1");
    engine.close();
  });

  it("stops every timer on close", () => {
    const { engine, finished } = makeEngine();
    engine.submit("k", endpointFixture(), planFixture());
    engine.close();
    vi.advanceTimersByTime(10_000);
    expect(finished).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
