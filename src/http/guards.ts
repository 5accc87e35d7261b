/**
 * Checks at the door of /mcp that need no body and no backend: Host (DNS rebinding), Origin,
 * CORS preflight for allowed origins, and the refusal of API keys placed in the URL.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { JSONRPC_INVALID_REQUEST, JSONRPC_SERVER_ERROR, sendRefusal } from "./jsonrpc-error.js";

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const MAX_REMEMBERED_HOSTS = 64;

/** Query parameter names that look like credentials; they are refused, never read or logged. */
export const KEY_PARAMETERS = ["api_key", "apikey", "key", "token", "access_token"];

const CORS_HEADERS = {
  "Access-Control-Allow-Methods": "POST",
  "Access-Control-Allow-Headers":
    "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID",
  "Access-Control-Max-Age": "600",
};

/** The query parameters of a request URL (path and fragment ignored). */
export function queryParams(originalUrl: string): URLSearchParams {
  const at = originalUrl.indexOf("?");
  return new URLSearchParams(at < 0 ? "" : originalUrl.slice(at + 1));
}

function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTNAMES.has(host.toLowerCase());
}

function hostnameOf(hostHeader: string): string | undefined {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export interface DoorOptions {
  /** The address the server is bound to; Host is checked when it is loopback. */
  bindHost: string;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}

/**
 * Host: when bound to loopback (or when hosts are configured), only loopback names and the
 * configured hosts (`host` or `host:port`) pass, so a rebound DNS name cannot reach the server.
 */
export function hostGuard(options: DoorOptions): RequestHandler {
  const configured = new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  const enforce = isLoopbackHost(options.bindHost) || configured.size > 0;
  // Host headers already allowed, so that the usual few are not parsed again on every request.
  const passed = new Set<string>();
  return (req: Request, res: Response, next: NextFunction) => {
    if (!enforce) return next();
    const header = (req.headers.host ?? "").toLowerCase();
    if (passed.has(header)) return next();
    const hostname = hostnameOf(header);
    const allowed =
      hostname !== undefined &&
      (LOOPBACK_HOSTNAMES.has(hostname) || configured.has(hostname) || configured.has(header));
    if (allowed) {
      if (passed.size < MAX_REMEMBERED_HOSTS) passed.add(header);
      return next();
    }
    sendRefusal(res, {
      status: 403,
      code: JSONRPC_SERVER_ERROR,
      message:
        "Host header not allowed: this server answers loopback names and the hosts in SVC_ALLOWED_HOSTS",
      reason: "host",
    });
  };
}

/**
 * Origin: absent (non-browser clients) passes; loopback origins and SVC_ALLOWED_ORIGINS pass and
 * get CORS headers; anything else is 403. Answers the CORS preflight for allowed origins.
 */
export function originGuard(options: DoorOptions): RequestHandler {
  const configured = new Set(options.allowedOrigins);
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    let allowed = configured.has(origin);
    if (!allowed) {
      try {
        const parsed = new URL(origin);
        allowed =
          (parsed.protocol === "http:" || parsed.protocol === "https:") &&
          LOOPBACK_HOSTNAMES.has(parsed.hostname);
      } catch {
        allowed = false;
      }
    }
    if (!allowed) {
      sendRefusal(res, {
        status: 403,
        code: JSONRPC_SERVER_ERROR,
        message: "Origin not allowed: add it to SVC_ALLOWED_ORIGINS to let a browser page connect",
        reason: "origin",
      });
      return;
    }
    res.set({ "Access-Control-Allow-Origin": origin, Vary: "Origin" });
    if (req.method === "OPTIONS") {
      res.set(CORS_HEADERS).status(204).end();
      return;
    }
    next();
  };
}

/** A key in the query string is refused before anything else reads the request. */
export function keyInUrlGuard(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.originalUrl.includes("?")) return next();
    const params = queryParams(req.originalUrl);
    const found = [...new Set([...params.keys()].map((k) => k.toLowerCase()))].filter((k) =>
      KEY_PARAMETERS.includes(k),
    );
    if (found.length === 0) return next();
    sendRefusal(res, {
      status: 400,
      code: JSONRPC_INVALID_REQUEST,
      message: `The API key belongs in the Authorization header ("Authorization: Bearer <key>"), never in the URL; the query parameter ${found.join(", ")} was not used. Remove it from the address and treat the key as exposed.`,
      reason: "key_in_url",
    });
  };
}
