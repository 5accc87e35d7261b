/**
 * `createSandboxApp` builds the sandbox as an Express app without listening, so it can be embedded;
 * `startSandbox` (server.ts) listens. The catalog is given by the caller, never loaded here.
 */
import { randomBytes } from "node:crypto";
import express from "express";
import { pino } from "pino";
import type { Catalog } from "../catalog/types.js";
import type { Logger } from "../log.js";
import { type CallbackStats, createCallbackSender } from "./callbacks.js";
import { createCreditLedger, taskCost } from "./credits.js";
import { createCursorCodec } from "./cursor.js";
import { createTaskEngine, type EngineStats, type Task } from "./engine.js";
import { createFileStore } from "./files.js";
import { authenticate, endpointNotFound, errorHandler, rateLimit } from "./http.js";
import { resolveSandboxOptions, type SandboxOptions } from "./knobs.js";
import { createRateLimiter } from "./rate-limit.js";
import { type SandboxContext, sandboxRoutes } from "./routes.js";
import { callbackBody } from "./task-view.js";

export interface SandboxAppOptions extends Partial<SandboxOptions> {
  catalog: Catalog;
  logger?: Logger;
  /** Base URL clients reach the sandbox at (for file links); default: each request's Host. */
  publicUrl?: string;
  /** Clock and randomness, replaceable in unit tests. */
  now?: () => number;
  random?: () => number;
}

export interface SandboxStats extends EngineStats {
  callbacks: CallbackStats;
}

export interface SandboxApp {
  app: express.Express;
  options: SandboxOptions;
  stats(): SandboxStats;
  /** Stops timers and pending callbacks; the caller closes whatever server it mounted the app on. */
  close(): Promise<void>;
}

export function createSandboxApp(appOptions: SandboxAppOptions): SandboxApp {
  const { catalog, publicUrl, now = Date.now, random = Math.random } = appOptions;
  const logger = appOptions.logger ?? pino({ level: "silent" });
  const options = resolveSandboxOptions(appOptions);
  const secret = randomBytes(32);
  const ledger = createCreditLedger(options.keys, options.startingCredits);
  const files = createFileStore(secret);
  const callbacks = createCallbackSender({
    timeoutMs: options.callbackTimeoutMs,
    retries: options.callbackRetries,
    backoffMs: options.callbackBackoffMs,
    logger,
  });

  const onFinished = (task: Task) => {
    const count = task.plan.resultCount;
    if (task.status === "succeeded")
      ledger.charge(task.key, taskCost(task.endpoint.billing, count));
    logger.debug({ task_id: task.id, status: task.status }, "sandbox task finished");
    if (task.callback) {
      const taskFiles =
        task.status === "succeeded" ? files.list(task, task.callback.storageUrl) : [];
      callbacks.send(task.callback.url, callbackBody(task, taskFiles));
    }
  };
  const engine = createTaskEngine({
    retentionMs: options.retentionMs,
    maxTasks: options.maxTasks,
    now,
    onFinished,
  });
  const context: SandboxContext = {
    options,
    catalog,
    engine,
    ledger,
    cursors: createCursorCodec(secret),
    files,
    random,
    publicUrl: publicUrl?.replace(/\/+$/, ""),
  };

  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use("/v1", authenticate(options.keys), rateLimit(createRateLimiter(options.rateLimit, now)));
  app.use(sandboxRoutes(context));
  app.use(endpointNotFound);
  app.use(errorHandler(options.maxBodyBytes, logger));

  return {
    app,
    options,
    stats: () => ({ ...engine.stats(), callbacks: callbacks.stats() }),
    async close() {
      engine.close();
      await callbacks.close();
    },
  };
}
