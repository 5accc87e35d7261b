/**
 * Every failure of a tool call becomes an `isError` result the model can act on: what went wrong
 * (the backend's code and message), and what to do next. Nothing here throws.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  AbortedError,
  AuthenticationError,
  BackendError,
  ConnectionError,
  InsufficientCreditsError,
  NotFoundError,
  RateLimitError,
  ServerError,
  SubmitOutcomeUnknownError,
  TimeoutError,
} from "../backend/errors.js";
import { nearestNames } from "../catalog/nearest.js";
import type { Catalog, EndpointDescriptor, Violation } from "../catalog/types.js";
import type { Logger } from "../log.js";
import { errorResult } from "./results.js";

export interface ErrorScope {
  apiKey: string;
  logger: Logger;
  /** The task the call was about, to name it in "not found" and in the call to repeat. */
  taskId?: string;
  /** The tool that failed, named in the call to repeat (default svc_get_task). */
  tool?: string;
}

/** Advice for a failure of the service itself (after the client's own retries). */
function tryLater(error: BackendError): string | undefined {
  if (error instanceof ServerError) {
    return "The collection service failed to answer; try again shortly.";
  }
  if (error instanceof ConnectionError || error instanceof TimeoutError) {
    return "The collection service is unreachable or slow; try again shortly.";
  }
  return undefined;
}

function nextStep(error: BackendError, scope: ErrorScope): string | undefined {
  if (error instanceof SubmitOutcomeUnknownError) {
    return (
      "Do not resubmit blindly: check svc_account (credits used) and read any task_id you " +
      "already have with svc_get_task; resubmit only if you accept a possible duplicate."
    );
  }
  if (error instanceof NotFoundError && scope.taskId !== undefined) {
    return "Check the task_id: use the one svc_execute returned, with the same API key.";
  }
  if (error instanceof AuthenticationError) return "Check the API key this connection uses.";
  if (error instanceof InsufficientCreditsError) {
    return "Check the balance with svc_account; lower results_limit or add credits.";
  }
  if (error instanceof RateLimitError) {
    const seconds =
      error.retryAfterMs === undefined ? "a few" : Math.ceil(error.retryAfterMs / 1000);
    return `Try again in ${seconds} seconds.`;
  }
  const later = tryLater(error);
  if (scope.taskId !== undefined && (later !== undefined || error instanceof AbortedError)) {
    // A read that failed says nothing about the task: name the exact call that reads it later.
    const call = `${scope.tool ?? "svc_get_task"} with task_id ${JSON.stringify(scope.taskId)}`;
    return `${later ? `${later} ` : ""}The task itself is not affected: call ${call} again. Do not resubmit.`;
  }
  return later;
}

function headline(error: BackendError, scope: ErrorScope): string {
  if (error instanceof NotFoundError && scope.taskId !== undefined) {
    return `Task not found: ${scope.taskId} (${error.code}: ${error.message})`;
  }
  if (error instanceof AbortedError) return "The call was cancelled before the service answered.";
  const where = [
    error.status === undefined ? undefined : `HTTP ${error.status}`,
    error.requestId === undefined ? undefined : `request id ${error.requestId}`,
  ].filter((part) => part !== undefined);
  return `${error.code}: ${error.message}${where.length > 0 ? ` (${where.join(", ")})` : ""}`;
}

function scrub(text: string, apiKey: string): string {
  return apiKey.length > 0 ? text.replaceAll(apiKey, "[redacted]") : text;
}

/** The `isError` result for anything a handler threw. Unknown errors are logged, not shown. */
export function errorResultFrom(error: unknown, scope: ErrorScope): CallToolResult {
  if (!(error instanceof BackendError)) {
    scope.logger.error({ err: error }, "tool call failed unexpectedly");
    return errorResult("internal_error: the server failed while handling this call.");
  }
  const step = nextStep(error, scope);
  return errorResult(scrub(`${headline(error, scope)}${step ? `\n${step}` : ""}`, scope.apiKey));
}

/** One line per violation; the path leads, once (catalog messages usually start with it). */
function formatViolations(violations: readonly Violation[]): string {
  return violations
    .map(({ path, message }) => `- ${message.startsWith(path) ? message : `${path}: ${message}`}`)
    .join("\n");
}

/** Invalid tool arguments: every violation by path, so the model can fix them all at once. */
export function invalidArgumentsResult(violations: readonly Violation[]): CallToolResult {
  return errorResult(`Invalid arguments (nothing was sent):\n${formatViolations(violations)}`);
}

/** Invalid collection input: every violation, then the endpoint's full input schema. */
export function invalidInputResult(
  endpoint: EndpointDescriptor,
  violations: readonly Violation[],
): CallToolResult {
  return errorResult(
    `Invalid input for ${endpoint.public_id} (nothing was sent):\n${formatViolations(violations)}\n` +
      `Input schema of ${endpoint.public_id}: ${JSON.stringify(endpoint.input_schema)}`,
  );
}

/** An endpoint name that is not in the catalog, with the nearest valid ids. */
export function unknownEndpointResult(catalog: Catalog, name: string): CallToolResult {
  // Compared in id form, so a mistyped tool name (svc_a_b) still finds its id (a/b).
  const query = name.trim().toLowerCase().replace(/^svc_/, "").replaceAll("_", "-");
  const ids = catalog.endpoints.map((endpoint) => endpoint.public_id);
  const nearest = nearestNames(query, ids, 3);
  const suggestion = nearest.length > 0 ? ` Nearest ids: ${nearest.join(", ")}.` : "";
  return errorResult(
    `Unknown endpoint "${name}".${suggestion} Use svc_search_endpoints to find an endpoint id.`,
  );
}
