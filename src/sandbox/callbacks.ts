/**
 * Task-completion callbacks: one POST of the task summary after the terminal state, best-effort.
 * Each attempt has a timeout; failed attempts are retried a few times with doubling waits; nothing
 * here can block or fail the task, and `close()` abandons whatever is still pending.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";
import type { TaskFile, TaskStatus } from "../backend/types.js";
import type { Logger } from "../log.js";

export interface CallbackBody {
  task_id: string;
  feature_code: string;
  public_id: string;
  agent: string;
  supplier: string;
  status: TaskStatus;
  result_count: number;
  output_summary: { files: TaskFile[]; result_count: number };
  error_message: string | null;
  created_time: string;
  finished_time: string;
}

export type AttemptOutcome = { status: number } | { error: Error };

/** Pure retry rule: network errors, timeouts, 408, 429 and 5xx are worth another attempt. */
export function shouldRetryCallback(outcome: AttemptOutcome): boolean {
  if ("error" in outcome) return true;
  return outcome.status === 408 || outcome.status === 429 || outcome.status >= 500;
}

/** Wait before retry number `retry` (1-based): the backoff, doubled for each retry before it. */
export function callbackRetryDelayMs(retry: number, backoffMs: number): number {
  return backoffMs * 2 ** (retry - 1);
}

export interface CallbackSenderOptions {
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  logger: Logger;
}

export interface CallbackStats {
  delivered: number;
  failed: number;
  pending: number;
}

export interface CallbackSender {
  /** Starts delivery and returns at once. */
  send(url: string, body: CallbackBody): void;
  stats(): CallbackStats;
  close(): Promise<void>;
}

export function createCallbackSender(options: CallbackSenderOptions): CallbackSender {
  const { timeoutMs, retries, backoffMs, logger } = options;
  const dispatcher = new Agent({
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const closing = new AbortController();
  const pending = new Set<Promise<void>>();
  const counts = { delivered: 0, failed: 0 };

  const attempt = async (url: string, payload: string): Promise<AttemptOutcome> => {
    try {
      const response = await request(url, {
        method: "POST",
        dispatcher,
        headers: { "content-type": "application/json", "user-agent": "svc-sandbox-callback" },
        body: payload,
        signal: AbortSignal.any([closing.signal, AbortSignal.timeout(timeoutMs)]),
      });
      await response.body.dump();
      return { status: response.statusCode };
    } catch (error) {
      return { error: error as Error };
    }
  };

  const pause = (ms: number) =>
    sleep(ms, undefined, { signal: closing.signal, ref: false }).catch(() => undefined);

  const deliver = async (url: string, body: CallbackBody): Promise<void> => {
    const payload = JSON.stringify(body);
    const target = new URL(url).origin;
    for (let attemptNumber = 0; attemptNumber <= retries; attemptNumber++) {
      if (attemptNumber > 0) await pause(callbackRetryDelayMs(attemptNumber, backoffMs));
      if (closing.signal.aborted) break;
      const outcome = await attempt(url, payload);
      if ("status" in outcome && outcome.status >= 200 && outcome.status < 300) {
        counts.delivered++;
        logger.debug(
          { task_id: body.task_id, target, attempts: attemptNumber + 1 },
          "callback sent",
        );
        return;
      }
      const reason = "status" in outcome ? `HTTP ${outcome.status}` : outcome.error.message;
      logger.warn(
        { task_id: body.task_id, target, attempt: attemptNumber + 1, reason },
        "callback failed",
      );
      if (!shouldRetryCallback(outcome)) break;
    }
    counts.failed++;
  };

  return {
    send(url, body) {
      if (closing.signal.aborted) return;
      const delivery = deliver(url, body).finally(() => pending.delete(delivery));
      pending.add(delivery);
    },
    stats: () => ({ ...counts, pending: pending.size }),
    async close() {
      closing.abort();
      await Promise.allSettled([...pending]);
      await dispatcher.destroy();
    },
  };
}
