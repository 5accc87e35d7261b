/**
 * Shaping a task read into the tool result: the inline page bounded in count and bytes (with a
 * cursor that continues exactly after the last record returned), and an explicit next step.
 */
import type { TaskRead } from "../backend/index.js";
import { fittingCount, projectRecord } from "./records.js";

export interface InlinePage {
  items: Record<string, unknown>[];
  next_cursor: string | null;
  has_more: boolean;
}

export interface PageRequest {
  fields?: readonly string[] | undefined;
  maxBytes: number;
}

/** Reads the same page again (same cursor) with a smaller page size. */
export type PageReader = (limit: number) => Promise<TaskRead>;

function pageOf(task: TaskRead, fields: readonly string[] | undefined): InlinePage {
  const results = task.results ?? { items: [], next_cursor: null, has_more: false };
  const items = fields
    ? results.items.map((record) => projectRecord(record, fields))
    : (results.items as Record<string, unknown>[]);
  return { items, next_cursor: results.next_cursor, has_more: results.has_more };
}

/** A bounded page and the JSON of its items, which the result's text reuses. */
export interface BoundedPage {
  page: InlinePage;
  itemsJson: string;
}

/**
 * The page of a succeeded task, cut to the byte budget. The cursor is opaque, so when the budget
 * keeps only the first k records the same page is read again with limit k: that read's
 * `next_cursor` continues right after record k, and no record is skipped or repeated.
 */
export async function boundedPage(
  first: TaskRead,
  request: PageRequest,
  readPage: PageReader,
): Promise<BoundedPage> {
  const page = pageOf(first, request.fields);
  const itemsJson = JSON.stringify(page.items);
  const fitting = fittingCount(page.items, request.maxBytes, itemsJson);
  if (fitting >= page.items.length) return { page, itemsJson };
  const smaller = pageOf(await readPage(fitting), request.fields);
  return { page: smaller, itemsJson: JSON.stringify(smaller.items) };
}

export interface TaskResultExtras {
  estimated_credits?: number;
  /** Replaces the default next step (e.g. after a read failed). */
  next_step?: string;
}

/** What the result needs of a task: a submit response is enough when no read succeeded. */
export type TaskState = Pick<TaskRead, "task_id" | "status"> &
  Partial<Pick<TaskRead, "error_message">>;

function nextStep(task: TaskState, page: InlinePage | undefined, waitMaxSeconds: number): string {
  const id = JSON.stringify(task.task_id);
  if (task.status === "queued" || task.status === "running") {
    return (
      `Task is still ${task.status}. Do not resubmit: call svc_get_task with task_id ${id} ` +
      `(wait_seconds up to ${waitMaxSeconds}) until it succeeds or fails.`
    );
  }
  if (page?.has_more) {
    return `More records: call svc_get_task with task_id ${id} and cursor set to next_cursor.`;
  }
  return task.status === "succeeded"
    ? "All records returned."
    : "The task failed; see error_message.";
}

/** The structured content of svc_execute, svc_get_task and the typed tools. */
export function taskResultData(
  task: TaskState,
  page: InlinePage | undefined,
  waitMaxSeconds: number,
  extras: TaskResultExtras = {},
): Record<string, unknown> {
  return {
    task_id: task.task_id,
    status: task.status,
    ...(extras.estimated_credits === undefined
      ? {}
      : { estimated_credits: extras.estimated_credits }),
    ...(page ?? {}),
    ...(task.status === "failed" ? { error_message: task.error_message ?? null } : {}),
    next_step: extras.next_step ?? nextStep(task, page, waitMaxSeconds),
  };
}
