/**
 * The one wait/poll loop, shared by the MCP tools and the CLI. It only reads the task: it never
 * cancels or resubmits it. It returns the last known state on a terminal status, at the deadline,
 * or as soon as the caller aborts.
 */
import { AbortedError, BackendError } from "./errors.js";
import { sleep } from "./sleep.js";
import { type TaskRead, TERMINAL_STATUSES } from "./types.js";

export interface Backoff {
  /** Wait before the second read. */
  initialMs: number;
  /** Longest wait between two reads. */
  maxMs: number;
  /** Each wait is at least the previous one times this. */
  factor: number;
  /** Each wait is at least this share of the time waited so far (none when absent). */
  share?: number;
}

/**
 * Reads every 0.2 s, then every 10 % of the time waited so far, up to 5 s: a finished task is
 * noticed within max(0.2 s, 10 % of its run time), at the cost of about 11 + 24 log10(t / 2 s)
 * reads for a task of t seconds (5 s: 21 reads, 20 s: 35). Doubling waits would read less often
 * but notice a task that finished just after a read only up to one whole wait later.
 */
export const DEFAULT_BACKOFF: Backoff = { initialMs: 200, maxMs: 5_000, factor: 1, share: 0.1 };

/** The client methods the loop needs (a `BackendClient` fits). */
export interface TaskReader {
  getTask(
    key: string,
    taskId: string,
    query?: { limit?: number; cursor?: string },
    opts?: { signal?: AbortSignal },
  ): Promise<TaskRead>;
}

export interface WaitOptions {
  /**
   * Absolute time (the `Date.now()` clock, in ms) by which the loop returns. Compute it before the
   * submit (`Date.now() + waitSeconds * 1000`) so that the submit counts against the same budget.
   * A deadline already past gives exactly one read.
   */
  deadlineMs: number;
  signal?: AbortSignal | undefined;
  /** Page size of each read, so that the terminal read already carries the first page. */
  limit?: number | undefined;
  onPoll?: ((task: TaskRead, poll: number, elapsedMs: number) => void | Promise<void>) | undefined;
  backoff?: Backoff | undefined;
}

export interface WaitResult {
  task: TaskRead;
  polls: number;
  /** The deadline came before a terminal status. */
  timedOut: boolean;
  /** The signal fired; `task` is the last state read before that. */
  aborted: boolean;
}

/** Anything below this cannot be a `Date.now()` value: it is a duration passed by mistake. */
const EARLIEST_DEADLINE = Date.UTC(2001, 0, 1);

const isTerminal = (task: TaskRead) => TERMINAL_STATUSES.includes(task.status);

/** A read that failed this way (unreachable, timed out, 5xx, 429) may well succeed a moment later. */
const isTransient = (error: unknown) => error instanceof BackendError && error.retryable;

/**
 * Reads the task at once, then again after each wait of the backoff (see DEFAULT_BACKOFF). The
 * last sleep is cut short so that the final read happens at the deadline. If the signal fires
 * before the first read has answered there is no state to return, and `AbortedError` is thrown.
 */
export async function waitForTask(
  client: TaskReader,
  key: string,
  taskId: string,
  options: WaitOptions,
): Promise<WaitResult> {
  const { deadlineMs, signal, limit, onPoll } = options;
  if (!Number.isFinite(deadlineMs) || deadlineMs < EARLIEST_DEADLINE) {
    throw new TypeError(`deadlineMs must be an absolute Date.now() time, got ${deadlineMs}`);
  }
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const started = Date.now();
  const query = limit === undefined ? undefined : { limit };
  const read = () => client.getTask(key, taskId, query, signal ? { signal } : undefined);
  if (signal?.aborted) {
    throw new AbortedError({ code: "aborted", message: "The wait was cancelled" });
  }

  let task = await read();
  let polls = 1;
  let delayMs = backoff.initialMs;
  // A transient failure of a later read does not end the wait while budget remains; it is thrown
  // only when the last read before the deadline failed too.
  let lastFailure: unknown;
  await onPoll?.(task, polls, Date.now() - started);
  for (;;) {
    if (isTerminal(task)) return { task, polls, timedOut: false, aborted: false };
    const remainingMs = deadlineMs - Date.now();
    if (remainingMs <= 0) {
      if (lastFailure !== undefined) throw lastFailure;
      return { task, polls, timedOut: true, aborted: false };
    }
    if (!(await sleep(Math.min(delayMs, remainingMs), signal))) {
      return { task, polls, timedOut: false, aborted: true };
    }
    const proportionalMs = Math.round((backoff.share ?? 0) * (Date.now() - started));
    delayMs = Math.min(backoff.maxMs, Math.max(delayMs * backoff.factor, proportionalMs));
    try {
      task = await read();
      lastFailure = undefined;
    } catch (error) {
      if (signal?.aborted) return { task, polls, timedOut: false, aborted: true };
      if (!isTransient(error)) throw error;
      lastFailure = error;
      continue;
    }
    polls += 1;
    await onPoll?.(task, polls, Date.now() - started);
  }
}
