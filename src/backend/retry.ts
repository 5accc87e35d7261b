/**
 * The retry decision, as a pure function of one failed attempt, so it is tested without a network.
 *
 * Reads (GET) are idempotent: they are retried on connection errors, 408, 429 and 5xx (not 501),
 * with full-jitter exponential backoff, waiting at least what `Retry-After` asks.
 * Header and body timeouts are not retried: each attempt already waited the whole timeout, and
 * the callers (a tool call, a CLI wait) have a budget of their own.
 *
 * A submit (POST) creates a task, and nothing in the interface makes it idempotent. It is retried
 * only when the connection was never established (refused, DNS not answering, connect timeout):
 * then not one byte of the request left this process, so no task can exist. Every other failure
 * — a reset after sending, a timeout, a 5xx, even a 429 — is surfaced to the caller instead.
 */

export const RETRY_POLICY = {
  /** Backoff ceiling of the first retry; doubles on each further attempt. */
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  /** A `Retry-After` longer than this is not waited out here; the error goes to the caller. */
  maxRetryAfterMs: 10_000,
} as const;

/** Socket-level codes meaning "no connection was made": nothing was sent. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Socket-level codes worth another try for an idempotent read. */
const READ_RETRY_CODES: ReadonlySet<string> = new Set([
  ...NOT_SENT_CODES,
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
]);

export interface RetryInput {
  /** 1-based number of the attempt that just failed. */
  attempt: number;
  maxAttempts: number;
  kind: "read" | "submit";
  /** HTTP status of the answer, when one came. */
  status?: number | undefined;
  /** Socket-level error code, when no answer came. */
  errorCode?: string | undefined;
  /** Raw `Retry-After` header: seconds or an HTTP date. */
  retryAfterHeader?: string | undefined;
  /** Source of randomness in [0, 1); injectable for tests. */
  random?: () => number;
  /** Current time for HTTP-date `Retry-After` values; injectable for tests. */
  now?: number;
}

export interface RetryDecision {
  retry: boolean;
  delayMs: number;
  reason: string;
}

/** `Retry-After` as milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // An HTTP date always names its weekday and month; this keeps "-3" from parsing as a year.
  const date = /[a-z]{3}/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599 && status !== 501);
}

function no(reason: string): RetryDecision {
  return { retry: false, delayMs: 0, reason };
}

export function shouldRetry(input: RetryInput): RetryDecision {
  const { attempt, maxAttempts, kind, status, errorCode } = input;
  if (attempt >= maxAttempts) return no("no attempts left");
  if (kind === "submit") {
    if (status === undefined && errorCode !== undefined && NOT_SENT_CODES.has(errorCode)) {
      return backoff(input, `submit not sent (${errorCode})`);
    }
    return no("a submit that may have reached the backend is never retried");
  }
  if (status !== undefined) {
    if (!isRetryableStatus(status)) return no(`status ${status} is final`);
    return backoff(input, `status ${status}`);
  }
  if (errorCode !== undefined && READ_RETRY_CODES.has(errorCode)) {
    return backoff(input, `connection error ${errorCode}`);
  }
  return no(errorCode === undefined ? "no status and no error code" : `${errorCode} is final`);
}

function backoff(input: RetryInput, reason: string): RetryDecision {
  const random = input.random ?? Math.random;
  const ceiling = Math.min(
    RETRY_POLICY.maxDelayMs,
    RETRY_POLICY.baseDelayMs * 2 ** Math.max(0, input.attempt - 1),
  );
  const jittered = Math.floor(random() * ceiling);
  const retryAfterMs = parseRetryAfter(input.retryAfterHeader, input.now ?? Date.now());
  if (retryAfterMs === undefined) return { retry: true, delayMs: jittered, reason };
  if (retryAfterMs > RETRY_POLICY.maxRetryAfterMs) {
    return no(
      `Retry-After of ${retryAfterMs} ms is longer than ${RETRY_POLICY.maxRetryAfterMs} ms`,
    );
  }
  return { retry: true, delayMs: Math.max(retryAfterMs, jittered), reason };
}
