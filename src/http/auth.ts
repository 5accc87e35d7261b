/**
 * Bearer authentication for /mcp. The key is required on every request and passed through to the
 * backend; at `initialize` it is checked once through the account endpoint. Verdicts are cached
 * by a hash of the key (never the key) for `authCacheSeconds`.
 */
import { createHash } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { AuthenticationError, type BackendClient } from "../backend/index.js";
import type { Logger } from "../log.js";
import { JSONRPC_SERVER_ERROR, sendRefusal } from "./jsonrpc-error.js";

const MAX_CACHED_KEYS = 10_000;
const MAX_KEY_LENGTH = 512;

/** `valid`/`rejected` come from the backend; `unverified` means it could not answer. */
export type KeyVerdict = "valid" | "rejected" | "unverified";

export interface Caller {
  apiKey: string;
  /** sha256 of the key: the only form of it kept in memory maps. */
  keyHash: string;
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("base64url");
}

export function callerOf(res: Response): Caller {
  return res.locals.caller as Caller;
}

/** 401 with `WWW-Authenticate: Bearer` unless the request carries `Authorization: Bearer <key>`. */
export function requireBearer(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? "");
    const key = match?.[1];
    if (key === undefined || key.length > MAX_KEY_LENGTH) {
      sendRefusal(res, {
        status: 401,
        code: JSONRPC_SERVER_ERROR,
        message: 'Authentication required: send the API key as "Authorization: Bearer <key>"',
        headers: { "WWW-Authenticate": 'Bearer realm="svc-mcp"' },
        reason: "missing_key",
      });
      return;
    }
    const caller: Caller = { apiKey: key, keyHash: hashKey(key) };
    res.locals.caller = caller;
    next();
  };
}

export interface KeyVerifier {
  verify(caller: Caller): Promise<KeyVerdict>;
}

export interface KeyVerifierOptions {
  backend: Pick<BackendClient, "getAccount">;
  cacheSeconds: number;
  logger: Logger;
  now?: () => number;
}

export function createKeyVerifier(options: KeyVerifierOptions): KeyVerifier {
  const now = options.now ?? Date.now;
  const cache = new Map<string, { verdict: KeyVerdict; expiresAt: number }>();
  const pending = new Map<string, Promise<KeyVerdict>>();

  function remember(keyHash: string, verdict: KeyVerdict): void {
    if (options.cacheSeconds <= 0 || verdict === "unverified") return;
    cache.delete(keyHash);
    cache.set(keyHash, { verdict, expiresAt: now() + options.cacheSeconds * 1000 });
    if (cache.size > MAX_CACHED_KEYS) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
  }

  async function ask(caller: Caller): Promise<KeyVerdict> {
    try {
      await options.backend.getAccount(caller.apiKey);
      return "valid";
    } catch (error) {
      if (error instanceof AuthenticationError) return "rejected";
      const code = (error as { code?: unknown }).code;
      options.logger.warn(
        { code: typeof code === "string" ? code : "unknown" },
        "key check skipped: the backend did not answer the account request",
      );
      return "unverified";
    }
  }

  return {
    verify(caller) {
      const cached = cache.get(caller.keyHash);
      if (cached && cached.expiresAt > now()) return Promise.resolve(cached.verdict);
      if (cached) cache.delete(caller.keyHash);
      const inFlight = pending.get(caller.keyHash);
      if (inFlight) return inFlight;
      const asked = ask(caller)
        .then((verdict) => {
          remember(caller.keyHash, verdict);
          return verdict;
        })
        .finally(() => pending.delete(caller.keyHash));
      pending.set(caller.keyHash, asked);
      return asked;
    },
  };
}
