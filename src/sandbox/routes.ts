/** The REST routes of the sandbox: submit, task read, files, storage downloads, account, catalog. */
import express, { type Request, type Router } from "express";
import type { Catalog } from "../catalog/types.js";
import type { CreditLedger } from "./credits.js";
import type { CursorCodec } from "./cursor.js";
import type { Task, TaskEngine } from "./engine.js";
import { SandboxError, taskNotFound } from "./errors.js";
import { type FileStore, fileNameOf, STORAGE_PREFIX, writeTaskFile } from "./files.js";
import { jsonBody, keyFingerprint, requestKey } from "./http.js";
import type { SandboxOptions } from "./knobs.js";
import { planTask } from "./plan.js";
import { taskRead } from "./task-view.js";

export interface SandboxContext {
  options: SandboxOptions;
  catalog: Catalog;
  engine: TaskEngine;
  ledger: CreditLedger;
  cursors: CursorCodec;
  files: FileStore;
  random: () => number;
  /** Fixed public base URL; when absent it is taken from each request's Host. */
  publicUrl: string | undefined;
}

function storageUrlOf(context: SandboxContext, req: Request): string {
  const base = context.publicUrl ?? `${req.protocol}://${req.get("host") ?? "127.0.0.1"}`;
  return `${base}${STORAGE_PREFIX}`;
}

function callbackUrlOf(input: Record<string, unknown>): string | undefined {
  const value = input.callback_url;
  if (typeof value !== "string") return undefined;
  const protocol = URL.canParse(value) ? new URL(value).protocol : "";
  if (protocol !== "http:" && protocol !== "https:") {
    throw new SandboxError(422, "invalid_input", "the input breaks the endpoint's schema", [
      { path: "callback_url", message: "must be an absolute http or https URL" },
    ]);
  }
  return value;
}

function pageLimit(raw: unknown, options: SandboxOptions): number {
  if (raw === undefined) return options.pageLimitDefault;
  const max = options.pageLimitMax;
  const value = typeof raw === "string" && /^\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 1 && value <= max)) {
    throw new SandboxError(400, "invalid_query", "the query is invalid", [
      { path: "limit", message: `must be a whole number from 1 to ${max}` },
    ]);
  }
  return value;
}

function pageOffset(raw: unknown, task: Task, cursors: CursorCodec): number {
  if (raw === undefined) return 0;
  const offset = typeof raw === "string" ? cursors.decode(task.id, raw) : undefined;
  if (offset === undefined) {
    throw new SandboxError(
      400,
      "invalid_cursor",
      "the cursor is not one this task issued; pass next_cursor unchanged",
    );
  }
  return offset;
}

export function sandboxRoutes(context: SandboxContext): Router {
  const { options, catalog, engine, ledger, cursors, files } = context;
  const router = express.Router();
  const serializedCatalog = JSON.stringify(catalog.document);

  const ownTask = (req: Request, res: express.Response): Task => {
    const taskId = String(req.params.taskId);
    const task = engine.find(requestKey(res), taskId);
    if (!task) throw taskNotFound(taskId);
    return task;
  };

  router.get("/v1/account", (_req, res) => {
    const key = requestKey(res);
    res.json({
      key_id: keyFingerprint(key),
      credits: ledger.balance(key),
      limits: {
        page_limit_default: options.pageLimitDefault,
        page_limit_max: options.pageLimitMax,
        max_body_bytes: options.maxBodyBytes,
        rate_limit_per_second: options.rateLimit,
        max_tasks: options.maxTasks,
        retention_seconds: options.retentionMs / 1000,
      },
    });
  });

  router.get("/v1/catalog", (_req, res) => {
    res.type("application/json").send(serializedCatalog);
  });

  router.get("/v1/tasks/:taskId", (req, res) => {
    const limit = pageLimit(req.query.limit, options);
    const task = ownTask(req, res);
    const offset = pageOffset(req.query.cursor, task, cursors);
    res.json(taskRead(task, { offset, limit }, cursors));
  });

  router.get("/v1/tasks/:taskId/files", (req, res) => {
    const task = ownTask(req, res);
    if (task.status !== "succeeded") {
      const reason =
        task.status === "failed" ? "it failed and has no files" : `it is ${task.status}`;
      throw new SandboxError(
        409,
        "task_not_ready",
        `files exist once a task has succeeded; ${reason}`,
      );
    }
    res.json({ task_id: task.id, files: files.list(task, storageUrlOf(context, req)) });
  });

  router.post("/v1/:platform/:resource", ...submitHandlers(context));

  router.get(`${STORAGE_PREFIX}/:token/:fileName`, async (req, res) => {
    const taskId = files.verify(String(req.params.token), String(req.params.fileName));
    const task = taskId === undefined ? undefined : engine.findAnyKey(taskId);
    if (task?.status !== "succeeded") {
      throw new SandboxError(404, "file_not_found", "no such file (it may have expired)");
    }
    res.set({
      "Content-Type": "application/gzip",
      "Content-Disposition": `attachment; filename="${fileNameOf(task.id)}"`,
    });
    await writeTaskFile(task, res).catch((error: unknown) => {
      // A client that hangs up mid-download is not a sandbox failure.
      if (!res.destroyed) throw error;
    });
  });

  return router;
}

function submitHandlers(context: SandboxContext): express.RequestHandler[] {
  const { options, catalog, engine, ledger } = context;
  const findEndpoint: express.RequestHandler = (req, res, next) => {
    const id = `${req.params.platform}/${req.params.resource}`;
    const endpoint = catalog.endpoint(id);
    if (!endpoint || endpoint.public_id !== id) {
      throw new SandboxError(404, "endpoint_not_found", `no endpoint POST /v1/${id.slice(0, 200)}`);
    }
    res.locals.endpoint = endpoint;
    next();
  };
  const submit: express.RequestHandler = (req, res) => {
    const endpoint = res.locals.endpoint as NonNullable<ReturnType<Catalog["endpoint"]>>;
    const checked = catalog.validate(endpoint.public_id, req.body);
    if (!checked.valid) {
      throw new SandboxError(
        422,
        "invalid_input",
        `the input breaks the schema of ${endpoint.public_id}`,
        checked.violations,
      );
    }
    const input = checked.data;
    const callbackUrl = callbackUrlOf(input);
    const key = requestKey(res);
    if (!ledger.canSpend(key)) {
      throw new SandboxError(402, "insufficient_credits", "this key has no credits left");
    }
    const plan = planTask(catalog, endpoint, input, options, context.random);
    const callback =
      callbackUrl === undefined
        ? undefined
        : { url: callbackUrl, storageUrl: storageUrlOf(context, req) };
    const task = engine.submit(key, endpoint, plan, callback);
    res
      .status(202)
      .location(`/v1/tasks/${task.id}`)
      .json({ task_id: task.id, status: task.status });
  };
  return [findEndpoint, ...jsonBody(options.maxBodyBytes), submit];
}
