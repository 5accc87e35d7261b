/**
 * The Express app: POST /mcp (stateless Streamable HTTP), 405 for other methods on /mcp,
 * /healthz (process alive) and /readyz (backend reachable). Only `startServer` listens.
 */
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import type { BackendClient } from "../backend/index.js";
import type { Catalog } from "../catalog/types.js";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import { createSelector } from "../mcp/selection.js";
import { createServerFactory } from "../mcp/server.js";
import { createToolSets } from "../mcp/tool-sets.js";
import { type Metrics, scrapeHandler } from "../metrics/index.js";
import type { ToolRegistry } from "../tools/index.js";
import { createKeyVerifier, requireBearer } from "./auth.js";
import { hostGuard, keyInUrlGuard, originGuard } from "./guards.js";
import { createInflight } from "./inflight.js";
import {
  INTERNAL_ERROR,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_PARSE_ERROR,
  JSONRPC_SERVER_ERROR,
  type Refusal,
  sendRefusal,
} from "./jsonrpc-error.js";
import { MAX_BODY_BYTES, mcpPost } from "./mcp-route.js";
import { requestLog } from "./request-log.js";
import { toolFilter } from "./tool-filter.js";

export interface AppDeps {
  config: Config;
  catalog: Catalog;
  backend: BackendClient;
  registry: ToolRegistry;
  logger: Logger;
  /** Where /mcp requests and the in-flight count are recorded; served at GET /metrics. */
  metrics: Metrics;
}

export interface McpApp {
  app: Express;
  /** Stops taking MCP requests, lets in-flight waits answer, then ends what is left. */
  close(): Promise<void>;
}

const BODY_ERRORS: Record<string, Refusal> = {
  "entity.too.large": {
    status: 413,
    code: JSONRPC_SERVER_ERROR,
    message: `The request body exceeds ${MAX_BODY_BYTES} bytes (1 MiB)`,
    reason: "too_large",
  },
  "entity.parse.failed": {
    status: 400,
    code: JSONRPC_PARSE_ERROR,
    message: "Parse error: the body is not valid JSON",
    reason: "not_json",
  },
  "encoding.unsupported": {
    status: 415,
    code: JSONRPC_SERVER_ERROR,
    message: "Unsupported content encoding; send identity, gzip or deflate",
    reason: "bad_encoding",
  },
  "charset.unsupported": {
    status: 415,
    code: JSONRPC_SERVER_ERROR,
    message: "Unsupported charset; send UTF-8 JSON",
    reason: "bad_charset",
  },
};

export function createApp(deps: AppDeps): McpApp {
  const { config, backend, logger, metrics } = deps;
  const shutdown = new AbortController();
  const inflight = createInflight();
  metrics.trackInflight(() => inflight.size);
  let closing: Promise<void> | undefined;
  const door = {
    bindHost: config.host,
    allowedHosts: config.allowedHosts,
    allowedOrigins: config.allowedOrigins,
  };

  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    if (closing) {
      res.status(503).json({ status: "shutting_down" });
      return;
    }
    const ping = await backend.ping().catch(() => ({ reachable: false }));
    res
      .status(ping.reachable ? 200 : 503)
      .json({ status: ping.reachable ? "ready" : "not_ready", backend: ping });
  });
  app.get("/metrics", scrapeHandler(metrics.registry, config.metricsToken));

  const atTheDoor = [
    requestLog(logger, metrics.observeMcpRequest),
    hostGuard(door),
    originGuard(door),
    keyInUrlGuard(),
  ];
  app.post(
    "/mcp",
    ...atTheDoor,
    requireBearer(),
    toolFilter(createSelector(deps.catalog, deps.registry), createToolSets(deps.registry)),
    // Every POST body is read as JSON within the cap; the transport then checks Content-Type.
    express.json({ limit: MAX_BODY_BYTES, type: () => true }),
    mcpPost({
      serverFactory: createServerFactory({ shutdownSignal: shutdown.signal }),
      verifier: createKeyVerifier({ backend, cacheSeconds: config.authCacheSeconds, logger }),
      inflight,
      logger,
      isClosing: () => closing !== undefined,
    }),
  );
  app.all("/mcp", ...atTheDoor, (_req: Request, res: Response) => {
    sendRefusal(res, {
      status: 405,
      code: JSONRPC_SERVER_ERROR,
      message:
        "Method not allowed: this stateless MCP endpoint answers POST only (no SSE stream on GET, no session to DELETE)",
      headers: { Allow: "POST" },
      reason: "method_not_allowed",
    });
  });
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ error: { code: "not_found", message: "Try POST /mcp" } });
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const type = (error as { type?: unknown }).type;
    const known = typeof type === "string" ? BODY_ERRORS[type] : undefined;
    if (res.headersSent) return;
    if (known) {
      sendRefusal(res, known);
      return;
    }
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      // Other refusals of the body reader (a length that does not match the body, …).
      sendRefusal(res, {
        status,
        code: JSONRPC_INVALID_REQUEST,
        message: "The request body could not be read",
        reason: "bad_body",
      });
      return;
    }
    logger.error({ err: error }, "unhandled request error");
    sendRefusal(res, INTERNAL_ERROR);
  });

  async function drain(): Promise<void> {
    shutdown.abort(new Error("server shutting down"));
    if (await inflight.drained(config.shutdownGraceMs)) return;
    logger.warn({ inflight: inflight.size }, "shutdown grace elapsed; ending open MCP requests");
    inflight.abortAll();
    await inflight.drained(1_000);
  }

  return {
    app,
    close() {
      closing ??= drain();
      return closing;
    },
  };
}
