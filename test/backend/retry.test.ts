import { describe, expect, it } from "vitest";
import { parseRetryAfter, RETRY_POLICY, shouldRetry } from "../../src/backend/retry.js";

const read = { kind: "read" as const, maxAttempts: 3, random: () => 0.5 };
const submit = { kind: "submit" as const, maxAttempts: 3, random: () => 0.5 };

describe("shouldRetry for reads", () => {
  it.each([500, 502, 503, 504, 429, 408])("retries status %i", (status) => {
    expect(shouldRetry({ ...read, attempt: 1, status }).retry).toBe(true);
  });

  it.each([400, 401, 402, 404, 409, 422, 501])("does not retry status %i", (status) => {
    expect(shouldRetry({ ...read, attempt: 1, status }).retry).toBe(false);
  });

  it.each(["ECONNREFUSED", "ECONNRESET", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "EPIPE"])(
    "retries connection error %s",
    (errorCode) => {
      expect(shouldRetry({ ...read, attempt: 1, errorCode }).retry).toBe(true);
    },
  );

  it("does not retry header or body timeouts, nor unknown codes", () => {
    for (const errorCode of ["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ENOTFOUND"]) {
      expect(shouldRetry({ ...read, attempt: 1, errorCode }).retry).toBe(false);
    }
    expect(shouldRetry({ ...read, attempt: 1 }).retry).toBe(false);
  });

  it("stops when the attempts are used up", () => {
    expect(shouldRetry({ ...read, attempt: 2, status: 503 }).retry).toBe(true);
    expect(shouldRetry({ ...read, attempt: 3, status: 503 }).retry).toBe(false);
  });

  it("backs off exponentially with full jitter, capped", () => {
    const ceiling = (attempt: number) =>
      shouldRetry({ ...read, maxAttempts: 99, attempt, status: 503, random: () => 0.999999 })
        .delayMs;
    expect(ceiling(1)).toBe(RETRY_POLICY.baseDelayMs - 1);
    expect(ceiling(2)).toBe(RETRY_POLICY.baseDelayMs * 2 - 1);
    expect(ceiling(3)).toBe(RETRY_POLICY.baseDelayMs * 4 - 1);
    expect(ceiling(20)).toBe(RETRY_POLICY.maxDelayMs - 1);
    const floor = shouldRetry({ ...read, attempt: 3, status: 503, random: () => 0 });
    expect(floor.delayMs).toBe(0);
  });

  it("waits at least what Retry-After asks, in seconds or as an HTTP date", () => {
    const seconds = shouldRetry({ ...read, attempt: 1, status: 429, retryAfterHeader: "3" });
    expect(seconds).toMatchObject({ retry: true, delayMs: 3000 });
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    const date = new Date(now + 4000).toUTCString();
    const byDate = shouldRetry({ ...read, attempt: 1, status: 503, retryAfterHeader: date, now });
    expect(byDate).toMatchObject({ retry: true, delayMs: 4000 });
  });

  it("keeps the jittered backoff when Retry-After asks for less", () => {
    const decision = shouldRetry({
      ...read,
      attempt: 2,
      status: 429,
      retryAfterHeader: "0",
      random: () => 0.5,
    });
    expect(decision).toMatchObject({ retry: true, delayMs: RETRY_POLICY.baseDelayMs });
  });

  it("gives up rather than wait out a Retry-After above the cap", () => {
    const tooLong = String(RETRY_POLICY.maxRetryAfterMs / 1000 + 1);
    const decision = shouldRetry({ ...read, attempt: 1, status: 429, retryAfterHeader: tooLong });
    expect(decision.retry).toBe(false);
  });
});

describe("shouldRetry for submits", () => {
  it("retries only when no connection was made", () => {
    for (const errorCode of ["ECONNREFUSED", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]) {
      expect(shouldRetry({ ...submit, attempt: 1, errorCode }).retry).toBe(true);
    }
  });

  it("never retries once the request may have reached the backend", () => {
    for (const errorCode of ["ECONNRESET", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", "EPIPE"]) {
      expect(shouldRetry({ ...submit, attempt: 1, errorCode }).retry).toBe(false);
    }
    for (const status of [429, 500, 502, 503, 504]) {
      expect(shouldRetry({ ...submit, attempt: 1, status, retryAfterHeader: "0" }).retry).toBe(
        false,
      );
    }
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds, fractions and dates; ignores garbage", () => {
    const now = Date.UTC(2030, 0, 1);
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter(" 1.5 ", now)).toBe(1500);
    expect(parseRetryAfter(new Date(now + 7000).toUTCString(), now)).toBe(7000);
    expect(parseRetryAfter(new Date(now - 7000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-3", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
