/**
 * The task store and its clock: a task is `queued`, then `running`, then reaches its planned
 * terminal state on one timer. Finished tasks expire after the retention; the store never holds
 * more than `maxTasks`. Records are not stored: they are generated from the plan on demand.
 */
import { randomBytes } from "node:crypto";
import type { TaskStatus } from "../backend/types.js";
import type { EndpointDescriptor } from "../catalog/types.js";
import { SandboxError } from "./errors.js";
import type { TaskPlan } from "./plan.js";

export interface Task {
  readonly id: string;
  readonly key: string;
  readonly endpoint: EndpointDescriptor;
  readonly plan: TaskPlan;
  /** Where to send the completion callback, and the storage URL its file links use. */
  readonly callback: TaskCallback | undefined;
  readonly createdAt: number;
  finishedAt: number | null;
  status: TaskStatus;
}

export interface TaskCallback {
  url: string;
  storageUrl: string;
}

export interface EngineStats {
  tasksCreated: number;
  tasksCreatedByKey: Record<string, number>;
  /** Tasks held in memory: unfinished ones plus finished ones within the retention. */
  tasksLive: number;
  tasksUnfinished: number;
  tasksExpired: number;
}

export interface TaskEngine {
  submit(key: string, endpoint: EndpointDescriptor, plan: TaskPlan, callback?: TaskCallback): Task;
  /** The task when it exists and belongs to `key`; another key's task is as good as missing. */
  find(key: string, taskId: string): Task | undefined;
  findAnyKey(taskId: string): Task | undefined;
  stats(): EngineStats;
  close(): void;
}

export interface EngineOptions {
  retentionMs: number;
  maxTasks: number;
  now: () => number;
  /** Runs once when a task reaches its terminal state (credits, callback). */
  onFinished: (task: Task) => void;
}

export function createTaskEngine(options: EngineOptions): TaskEngine {
  const { now, retentionMs } = options;
  const tasks = new Map<string, Task>();
  /** Finished tasks in finishing order, which is also their expiry order. */
  const finished = new Map<string, Task>();
  const timers = new Map<string, NodeJS.Timeout>();
  const createdByKey: Record<string, number> = {};
  let created = 0;
  let expired = 0;
  let expiryTimer: NodeJS.Timeout | undefined;

  const remove = (task: Task) => {
    tasks.delete(task.id);
    finished.delete(task.id);
    expired++;
  };

  const sweep = () => {
    expiryTimer = undefined;
    const time = now();
    for (const task of finished.values()) {
      if ((task.finishedAt ?? time) + retentionMs > time) break;
      remove(task);
    }
    armExpiry();
  };

  const armExpiry = () => {
    if (expiryTimer) return;
    const oldest = finished.values().next().value as Task | undefined;
    if (!oldest) return;
    const delay = Math.max(0, (oldest.finishedAt ?? now()) + retentionMs - now());
    expiryTimer = setTimeout(sweep, delay);
    expiryTimer.unref();
  };

  const finish = (task: Task) => {
    timers.delete(task.id);
    task.finishedAt = now();
    task.status = task.plan.failure === undefined ? "succeeded" : "failed";
    finished.set(task.id, task);
    armExpiry();
    options.onFinished(task);
  };

  const schedule = (task: Task, delayMs: number, step: () => void) => {
    const timer = setTimeout(step, delayMs);
    timer.unref();
    timers.set(task.id, timer);
  };

  const makeRoom = () => {
    while (tasks.size >= options.maxTasks) {
      const oldest = finished.values().next().value as Task | undefined;
      if (!oldest) {
        throw new SandboxError(
          429,
          "rate_limited",
          `too many tasks in progress (at most ${options.maxTasks}); retry shortly`,
          undefined,
          { "Retry-After": "1" },
        );
      }
      remove(oldest);
    }
  };

  return {
    submit(key, endpoint, plan, callback) {
      makeRoom();
      const task: Task = {
        id: `tsk_${randomBytes(12).toString("hex")}`,
        key,
        endpoint,
        plan,
        callback,
        createdAt: now(),
        finishedAt: null,
        status: plan.queuedMs > 0 ? "queued" : "running",
      };
      tasks.set(task.id, task);
      created++;
      createdByKey[key] = (createdByKey[key] ?? 0) + 1;
      const startRunning = () => {
        task.status = "running";
        schedule(task, plan.runningMs, () => finish(task));
      };
      if (plan.queuedMs > 0) schedule(task, plan.queuedMs, startRunning);
      else startRunning();
      return task;
    },
    find(key, taskId) {
      const task = tasks.get(taskId);
      return task && task.key === key ? task : undefined;
    },
    findAnyKey: (taskId) => tasks.get(taskId),
    stats: () => ({
      tasksCreated: created,
      tasksCreatedByKey: { ...createdByKey },
      tasksLive: tasks.size,
      tasksUnfinished: tasks.size - finished.size,
      tasksExpired: expired,
    }),
    close() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      if (expiryTimer) clearTimeout(expiryTimer);
      expiryTimer = undefined;
    },
  };
}
