/** What a task looks like on the wire: the task read (with its page of records) and the callback. */
import type { TaskFile, TaskRead } from "../backend/types.js";
import type { CallbackBody } from "./callbacks.js";
import type { CursorCodec } from "./cursor.js";
import type { Task } from "./engine.js";
import { generateRecords } from "./records.js";

const iso = (time: number | null): string | null =>
  time === null ? null : new Date(time).toISOString();

function resultCount(task: Task): number | null {
  if (task.status === "succeeded") return task.plan.resultCount;
  return task.status === "failed" ? 0 : null;
}

/** The task read; `results` holds records `offset` to `offset + limit` once the task succeeded. */
export function taskRead(
  task: Task,
  page: { offset: number; limit: number },
  cursors: CursorCodec,
) {
  const read: TaskRead = {
    task_id: task.id,
    endpoint: task.endpoint.public_id,
    status: task.status,
    created_time: iso(task.createdAt) as string,
    finished_time: iso(task.finishedAt),
    result_count: resultCount(task),
    error_message: task.status === "failed" ? (task.plan.failure ?? null) : null,
  };
  if (task.status !== "succeeded") return read;
  const total = task.plan.resultCount;
  const start = Math.min(page.offset, total);
  const end = Math.min(total, start + page.limit);
  const { platform, resource } = task.endpoint;
  const hasMore = end < total;
  read.results = {
    items: generateRecords(platform, resource, task.plan.seed, start, end),
    next_cursor: hasMore ? cursors.encode(task.id, end) : null,
    has_more: hasMore,
  };
  return read;
}

/** The callback body: every field of the interface's task summary, no records. */
export function callbackBody(task: Task, files: TaskFile[]): CallbackBody {
  const { platform, resource, public_id } = task.endpoint;
  const count = resultCount(task) ?? 0;
  const succeeded = task.status === "succeeded";
  return {
    task_id: task.id,
    feature_code: `${platform}.${resource}`.replaceAll("-", "_"),
    public_id: public_id.replace("/", "-"),
    agent: `sandbox-${platform}`,
    supplier: "sandbox",
    status: task.status,
    result_count: count,
    output_summary: { files: succeeded ? files : [], result_count: count },
    error_message: succeeded ? null : (task.plan.failure ?? null),
    created_time: iso(task.createdAt) as string,
    finished_time: iso(task.finishedAt ?? task.createdAt) as string,
  };
}
