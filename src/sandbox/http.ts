/**
 * The request guards every route shares: bearer-key authentication, the per-key rate limit, the
 * JSON body reader (415, 413, 400) and the one error handler that renders every failure in the
 * `{"error": {code, message, details?}}` shape.
 */
import { createHash } from "node:crypto";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import type { Logger } from "../log.js";
import { SandboxError } from "./errors.js";
import type { RateLimiter } from "./rate-limit.js";

/** A short, stable fingerprint that names a key in responses without revealing it. */
export function keyFingerprint(key: string): string {
  return `key_${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
}

/** The accepted key of a request, set by `authenticate`. */
export function requestKey(res: express.Response): string {
  return res.locals.key as string;
}

export function authenticate(keys: readonly string[]): RequestHandler {
  const byFingerprint = new Map(keys.map((key) => [keyFingerprint(key), key]));
  return (req, res, next) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? "");
    const key = match?.[1] === undefined ? undefined : byFingerprint.get(keyFingerprint(match[1]));
    if (key === undefined) {
      const message = match
        ? "the API key is not accepted"
        : "missing credentials: send Authorization: Bearer <API key>";
      throw new SandboxError(401, "unauthorized", message, undefined, {
        "WWW-Authenticate": 'Bearer realm="svc"',
      });
    }
    res.locals.key = key;
    next();
  };
}

export function rateLimit(limiter: RateLimiter): RequestHandler {
  return (_req, res, next) => {
    const decision = limiter.take(requestKey(res));
    if (!decision.allowed) {
      throw new SandboxError(
        429,
        "rate_limited",
        `too many requests; retry after ${decision.retryAfterSeconds} s`,
        undefined,
        { "Retry-After": String(decision.retryAfterSeconds) },
      );
    }
    next();
  };
}

/** Accepts only `Content-Type: application/json` (utf-8), reads at most `maxBytes`, parses it. */
export function jsonBody(maxBytes: number): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    const [type = "", ...parameters] = (req.headers["content-type"] ?? "").split(";");
    const charset = parameters
      .map((parameter) => parameter.trim().toLowerCase())
      .find((parameter) => parameter.startsWith("charset="));
    const utf8 = charset === undefined || /^charset="?utf-8"?$/.test(charset);
    if (type.trim().toLowerCase() !== "application/json" || !utf8) {
      throw new SandboxError(
        415,
        "unsupported_media_type",
        "the body must be sent as Content-Type: application/json (utf-8)",
      );
    }
    next();
  };
  const parse: RequestHandler = (req, _res, next) => {
    const raw: unknown = req.body;
    if (!Buffer.isBuffer(raw) || raw.length === 0) {
      throw new SandboxError(400, "invalid_json", "the request body is empty; send a JSON object");
    }
    try {
      req.body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
    } catch (error) {
      throw new SandboxError(
        400,
        "invalid_json",
        `the body is not valid JSON: ${(error as Error).message}`,
      );
    }
    next();
  };
  return [requireJson, express.raw({ type: () => true, limit: maxBytes, inflate: false }), parse];
}

interface BodyParserError {
  type?: string;
  status?: number;
  message?: string;
}

/** Maps what the body reader throws to our codes; anything unexpected becomes a logged 500. */
function toSandboxError(error: unknown, maxBytes: number, logger: Logger): SandboxError {
  if (error instanceof SandboxError) return error;
  const { type, status } = (error ?? {}) as BodyParserError;
  if (type === "entity.too.large") {
    return new SandboxError(413, "payload_too_large", `the body exceeds ${maxBytes} bytes`);
  }
  if (type === "encoding.unsupported") {
    return new SandboxError(415, "unsupported_media_type", "compressed bodies are not accepted");
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return new SandboxError(400, "invalid_query", (error as Error).message);
  }
  logger.error({ err: error }, "sandbox request failed");
  return new SandboxError(500, "internal", "the sandbox failed to handle the request");
}

export function errorHandler(maxBytes: number, logger: Logger): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    const failure = toSandboxError(error, maxBytes, logger);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(failure.status).set(failure.headers).json(failure.body());
  };
}

export const endpointNotFound: RequestHandler = (req) => {
  throw new SandboxError(
    404,
    "endpoint_not_found",
    `no endpoint ${req.method} ${req.path.slice(0, 200)}`,
  );
};
