import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  BackendError,
  errorFromResponse,
  InsufficientCreditsError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  ServerError,
  SubmitOutcomeUnknownError,
  TimeoutError,
  UnexpectedResponseError,
} from "../../src/backend/errors.js";

const body = (code: string, message: string, details?: unknown[]) =>
  Buffer.from(JSON.stringify({ error: { code, message, ...(details && { details }) } }));

describe("errorFromResponse", () => {
  it.each([
    [401, AuthenticationError, "unauthorized"],
    [403, AuthenticationError, "forbidden"],
    [402, InsufficientCreditsError, "insufficient_credits"],
    [404, NotFoundError, "task_not_found"],
    [400, InvalidRequestError, "invalid_cursor"],
    [409, InvalidRequestError, "task_not_ready"],
    [413, InvalidRequestError, "payload_too_large"],
    [415, InvalidRequestError, "unsupported_media_type"],
    [422, InvalidRequestError, "invalid_input"],
    [429, RateLimitError, "rate_limited"],
    [500, ServerError, "internal"],
    [503, ServerError, "unavailable"],
  ])("maps %i to %o with the backend's code and message", (status, kind, code) => {
    const error = errorFromResponse(status, body(code, `message for ${status}`), {
      "x-request-id": "req-123",
    });
    expect(error).toBeInstanceOf(kind);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ status, code, message: `message for ${status}` });
    expect(error.requestId).toBe("req-123");
    expect(error.name).toBe(kind.name);
  });

  it("keeps 422 violations as details", () => {
    const details = [{ path: "urls[0]", message: "must NOT have fewer than 1 characters" }];
    const error = errorFromResponse(422, body("invalid_input", "Input is invalid", details), {});
    expect(error.details).toEqual(details);
    expect(error.toJSON()).toEqual({
      code: "invalid_input",
      message: "Input is invalid",
      status: 422,
      details,
      retryable: false,
    });
  });

  it("reads Retry-After into a rate-limit error", () => {
    const error = errorFromResponse(429, body("rate_limited", "Slow down"), { "retry-after": "7" });
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(7000);
    expect(error.toJSON()).toMatchObject({ retry_after_ms: 7000, retryable: true });
  });

  it("gives a clear message for a non-JSON error body", () => {
    const html = "<html>\n  <body>502 Bad Gateway</body>\n</html>";
    const error = errorFromResponse(502, Buffer.from(html), {});
    expect(error).toBeInstanceOf(ServerError);
    expect(error.code).toBe("internal");
    expect(error.message).toContain("HTTP 502 Bad Gateway");
    expect(error.message).toContain("<html> <body>502 Bad Gateway</body> </html>");
    expect(error.retryable).toBe(true);
  });

  it("gives a clear message for an empty body and a default code per status", () => {
    const error = errorFromResponse(401, Buffer.alloc(0), {});
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      code: "unauthorized",
      message: "Backend answered HTTP 401 Unauthorized",
    });
  });

  it("accepts other services' error shapes", () => {
    const flat = errorFromResponse(400, Buffer.from('{"code":"bad","message":"Flat"}'), {});
    expect(flat).toMatchObject({ code: "bad", message: "Flat" });
    const stringError = errorFromResponse(404, Buffer.from('{"error":"No such task"}'), {});
    expect(stringError).toMatchObject({ code: "not_found", message: "No such task" });
    const detail = errorFromResponse(422, Buffer.from('{"detail":"Field x is wrong"}'), {});
    expect(detail).toMatchObject({ code: "invalid_input", message: "Field x is wrong" });
  });

  it("handles statuses it does not know", () => {
    const teapot = errorFromResponse(418, Buffer.from("short and stout"), {});
    expect(teapot).toBeInstanceOf(InvalidRequestError);
    expect(teapot.code).toBe("http_418");
    const redirect = errorFromResponse(302, Buffer.alloc(0), { location: "/elsewhere" });
    expect(redirect).toBeInstanceOf(UnexpectedResponseError);
    expect(redirect.code).toBe("unexpected_status");
    expect(redirect.message).toContain("HTTP 302 Found");
  });

  it("truncates a long body in the message", () => {
    const error = errorFromResponse(500, Buffer.from("x".repeat(5000)), {});
    expect(error.message.length).toBeLessThan(300);
  });
});

describe("SubmitOutcomeUnknownError", () => {
  it("says the outcome is unknown, keeps the cause and is not retryable", () => {
    const cause = new TimeoutError({ code: "timeout", phase: "headers", message: "No answer" });
    const error = new SubmitOutcomeUnknownError(cause);
    expect(error.code).toBe("submit_outcome_unknown");
    expect(error.retryable).toBe(false);
    expect(error.cause).toBe(cause);
    expect(error.message).toMatch(/may or may not have created a task: No answer/);
    expect(error.message).toMatch(/not retried/);
  });
});
