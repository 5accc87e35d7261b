/**
 * The one execution path of a collection, shared by svc_execute and every typed tool:
 * validate with the full catalog schema -> submit once -> wait -> shape. Reading a task
 * (svc_get_task) reuses the wait-and-shape half.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { BackendError, type TaskRead, waitForTask } from "../backend/index.js";
import type { EndpointDescriptor } from "../catalog/types.js";
import { invalidInputResult } from "./errors.js";
import { structuredResult } from "./results.js";
import { boundedPage, type TaskResultExtras, taskResultData } from "./task-result.js";
import type { ToolAnnotations, ToolContext, ToolDeps } from "./types.js";

/**
 * svc_execute and the typed tools create tasks (and spend credits) on an outside service. Not
 * idempotent: that is the protocol's default, left implicit to keep 52 listings small.
 */
export const COLLECTION_ANNOTATIONS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  openWorldHint: true,
};

export interface TaskReadPlan {
  /** Absolute `Date.now()` time by which waiting stops; a past deadline reads once. */
  deadlineMs: number;
  limit: number;
  /** A cursor means the task already succeeded: that page is read, without waiting. */
  cursor?: string | undefined;
  fields?: readonly string[] | undefined;
  extras?: TaskResultExtras;
}

function reportPoll(ctx: ToolContext) {
  return async (task: TaskRead, poll: number, elapsedMs: number) => {
    try {
      await ctx.progress?.({
        progress: poll,
        message: `Task ${task.task_id} ${task.status} after ${(elapsedMs / 1000).toFixed(1)} s`,
      });
    } catch (error) {
      // A progress notification that cannot be sent must not end the wait.
      ctx.logger.debug({ err: error }, "progress notification not sent");
    }
  };
}

/** Reads (waiting until the deadline when needed) and shapes one task. Throws backend errors. */
export async function readTaskResult(
  deps: ToolDeps,
  ctx: ToolContext,
  taskId: string,
  plan: TaskReadPlan,
): Promise<CallToolResult> {
  const { backend, config } = deps;
  const { limit, cursor } = plan;
  const signal = { signal: ctx.signal };
  const task =
    cursor === undefined
      ? (
          await waitForTask(backend, ctx.apiKey, taskId, {
            deadlineMs: plan.deadlineMs,
            signal: ctx.signal,
            limit,
            onPoll: ctx.progress ? reportPoll(ctx) : undefined,
          })
        ).task
      : await backend.getTask(ctx.apiKey, taskId, { limit, cursor }, signal);
  const bounded =
    task.status === "succeeded"
      ? await boundedPage(
          task,
          { fields: plan.fields, maxBytes: config.inlineMaxBytes },
          (smaller) => backend.getTask(ctx.apiKey, taskId, { limit: smaller, cursor }, signal),
        )
      : undefined;
  const data = taskResultData(task, bounded?.page, config.wait.maxSeconds, plan.extras);
  return structuredResult(data, [], bounded && { items: bounded.itemsJson });
}

export interface CollectionRequest {
  endpoint: EndpointDescriptor;
  input: unknown;
  waitSeconds: number;
  resultLimit: number;
}

/**
 * Validates the input against the endpoint's full catalog schema (nothing is sent when it is
 * invalid), submits it exactly once, then waits and shapes the task. Once a task exists, a failed
 * or cancelled wait still returns its task_id with the instruction to read it, never to resubmit.
 */
export async function runCollection(
  deps: ToolDeps,
  ctx: ToolContext,
  request: CollectionRequest,
): Promise<CallToolResult> {
  const { catalog, backend, config } = deps;
  const endpointId = request.endpoint.public_id;
  const checked = catalog.validate(endpointId, request.input);
  if (!checked.valid) return invalidInputResult(request.endpoint, checked.violations);
  const estimated_credits = catalog.estimate(endpointId, checked.data).credits;
  // The deadline is set before the submit, so that the submit counts against the wait budget.
  const deadlineMs = Date.now() + request.waitSeconds * 1000;
  const submitted = await backend.submit(ctx.apiKey, endpointId, checked.data, {
    signal: ctx.submitSignal ?? ctx.signal,
  });
  ctx.logger.info({ taskId: submitted.task_id, endpoint: endpointId }, "task submitted");
  try {
    return await readTaskResult(deps, ctx, submitted.task_id, {
      deadlineMs,
      limit: request.resultLimit,
      extras: { estimated_credits },
    });
  } catch (error) {
    if (!(error instanceof BackendError)) throw error;
    const next_step =
      `The task was submitted, but reading it failed (${error.code}: ${error.message}). ` +
      `Do not resubmit: read it with svc_get_task and task_id ${JSON.stringify(submitted.task_id)}.`;
    return structuredResult(
      taskResultData(submitted, undefined, config.wait.maxSeconds, {
        estimated_credits,
        next_step,
      }),
    );
  }
}
