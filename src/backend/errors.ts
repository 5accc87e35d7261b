/**
 * Typed backend errors. One base class, one subclass per kind, and one factory
 * (`errorFromResponse`) that picks the class from the HTTP status. Every error carries the
 * backend's `code` and message, the HTTP `status` (undefined when no answer came), the upstream
 * `x-request-id` and whether trying again later can help (`retryable`).
 *
 * Messages never contain the API key: the key only travels in the Authorization header, and the
 * client scrubs it from error bodies before they reach this module.
 */
import { STATUS_CODES } from "node:http";
import { parseRetryAfter } from "./retry.js";

export interface BackendErrorInit {
  code: string;
  message: string;
  status?: number | undefined;
  requestId?: string | undefined;
  details?: unknown[] | undefined;
  retryable?: boolean;
  cause?: unknown;
}

/** The JSON form of an error: what an `isError` tool result or `svc --json` prints. */
export interface BackendErrorJson {
  code: string;
  message: string;
  status?: number;
  request_id?: string;
  details?: unknown[];
  retryable: boolean;
  retry_after_ms?: number;
}

export class BackendError extends Error {
  readonly code: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly details: unknown[] | undefined;
  readonly retryable: boolean;

  constructor(init: BackendErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryable = init.retryable ?? false;
  }

  toJSON(): BackendErrorJson {
    return {
      code: this.code,
      message: this.message,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.requestId === undefined ? {} : { request_id: this.requestId }),
      ...(this.details === undefined ? {} : { details: this.details }),
      retryable: this.retryable,
    };
  }
}

/** 401 (missing or rejected key) and 403 (key not allowed to do this). */
export class AuthenticationError extends BackendError {}

/** 402: the key's credits do not cover the task. */
export class InsufficientCreditsError extends BackendError {}

/** 404: `task_not_found` (also a task of another key) or `endpoint_not_found`. */
export class NotFoundError extends BackendError {}

/** 400, 409, 413, 415, 422 and any other 4xx: the request itself was refused. */
export class InvalidRequestError extends BackendError {}

/** 429: too many requests; `retryAfterMs` from the `Retry-After` header when it has one. */
export class RateLimitError extends BackendError {
  readonly retryAfterMs: number | undefined;

  constructor(init: BackendErrorInit & { retryAfterMs?: number | undefined }) {
    super({ ...init, retryable: true });
    this.retryAfterMs = init.retryAfterMs;
  }

  override toJSON(): BackendErrorJson {
    const json = super.toJSON();
    return this.retryAfterMs === undefined ? json : { ...json, retry_after_ms: this.retryAfterMs };
  }
}

/** 5xx: the backend answered but failed. */
export class ServerError extends BackendError {}

/**
 * The backend could not be reached or the connection broke before an answer came.
 * `networkCode` is the socket-level code (ECONNREFUSED, UND_ERR_SOCKET, ...).
 */
export class ConnectionError extends BackendError {
  readonly networkCode: string | undefined;

  constructor(init: BackendErrorInit & { networkCode?: string | undefined }) {
    super({ ...init, retryable: true });
    this.networkCode = init.networkCode;
  }
}

/** The backend accepted the connection but sent no headers, or stalled mid-body, in time. */
export class TimeoutError extends BackendError {
  readonly phase: "headers" | "body";

  constructor(init: BackendErrorInit & { phase: "headers" | "body" }) {
    super({ ...init, retryable: true });
    this.phase = init.phase;
  }
}

/** A 2xx or 3xx answer we cannot use: not JSON, wrong shape, or over the size cap. */
export class UnexpectedResponseError extends BackendError {}

/** The caller's AbortSignal fired before an answer came. */
export class AbortedError extends BackendError {}

/**
 * A submit that may have reached the backend got no usable answer (timeout or broken connection
 * after sending, a 5xx, an unreadable 2xx, or a cancellation mid-flight). The task may or may not
 * exist. It is never retried automatically, because a retry could create the task twice.
 */
export class SubmitOutcomeUnknownError extends BackendError {
  constructor(cause: BackendError) {
    super({
      code: "submit_outcome_unknown",
      message:
        `The submit may or may not have created a task: ${cause.message}. ` +
        "It was not retried, so that no task is created twice. Submitting again may create a " +
        "second task (and charge for it).",
      status: cause.status,
      requestId: cause.requestId,
      details: cause.details,
      retryable: false,
      cause,
    });
  }
}

/** Default codes for an error answer whose body does not name one. */
const DEFAULT_CODES: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  402: "insufficient_credits",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "invalid_input",
  429: "rate_limited",
};

type Headers = Record<string, string | string[] | undefined>;

export function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

interface ParsedErrorBody {
  code?: string;
  message?: string;
  details?: unknown[];
}

function asText(body: unknown): string | undefined {
  if (typeof body === "string") return body;
  if (Buffer.isBuffer(body)) return body.toString("utf8");
  return undefined;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** Reads `{error: {code, message, details}}` and the common variants other services use. */
function parseErrorBody(json: unknown): ParsedErrorBody | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const top = json as Record<string, unknown>;
  const inner =
    typeof top.error === "object" && top.error !== null
      ? (top.error as Record<string, unknown>)
      : top;
  const details = Array.isArray(inner.details) ? inner.details : undefined;
  const code = nonEmptyString(inner.code) ?? nonEmptyString(inner.type);
  const message =
    nonEmptyString(inner.message) ??
    nonEmptyString(inner.detail) ??
    nonEmptyString(top.message) ??
    nonEmptyString(top.error);
  if (code === undefined && message === undefined) return undefined;
  return { ...(code && { code }), ...(message && { message }), ...(details && { details }) };
}

function describeStatus(status: number): string {
  return `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/**
 * The one place that turns a non-2xx answer into a typed error. `body` is the raw body (Buffer
 * or string) or already-parsed JSON; a body that is not the documented shape still gives a clear
 * message naming the status.
 */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: Headers,
  now: number = Date.now(),
): BackendError {
  const text = asText(body);
  let json: unknown = body;
  if (text !== undefined) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  const parsed = parseErrorBody(json);
  const fallbackMessage =
    text !== undefined && text.trim() !== "" && parsed === undefined
      ? `Backend answered ${describeStatus(status)} with an unexpected body: "${snippet(text)}"`
      : `Backend answered ${describeStatus(status)}`;
  const init: BackendErrorInit = {
    code: parsed?.code ?? DEFAULT_CODES[status] ?? (status >= 500 ? "internal" : `http_${status}`),
    message: parsed?.message ?? fallbackMessage,
    status,
    requestId: headerValue(headers, "x-request-id"),
    details: parsed?.details,
  };
  if (status === 401 || status === 403) return new AuthenticationError(init);
  if (status === 402) return new InsufficientCreditsError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headerValue(headers, "retry-after"), now);
    return new RateLimitError({ ...init, retryAfterMs });
  }
  if (status >= 400 && status < 500) return new InvalidRequestError(init);
  if (status >= 500 && status < 600) return new ServerError({ ...init, retryable: true });
  return new UnexpectedResponseError({
    ...init,
    code: parsed?.code ?? "unexpected_status",
    message: parsed?.message ?? `${fallbackMessage}, which this client does not handle`,
  });
}
