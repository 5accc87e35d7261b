/**
 * The REST client: one request path (method -> `call` -> transport) over one undici Agent.
 * Reads are retried per `shouldRetry`; a submit that may have reached the backend never is, and
 * becomes `SubmitOutcomeUnknownError` when no clear answer came back.
 */
import type { Logger } from "../log.js";
import {
  AbortedError,
  BackendError,
  ConnectionError,
  errorFromResponse,
  headerValue,
  InvalidRequestError,
  SubmitOutcomeUnknownError,
  UnexpectedResponseError,
} from "./errors.js";
import { NOT_SENT_CODES, shouldRetry } from "./retry.js";
import { sleep } from "./sleep.js";
import { createTransport, type TransportOptions } from "./transport.js";
import type { Account, SubmitResponse, TaskFiles, TaskRead } from "./types.js";

export const CLIENT_DEFAULTS = {
  maxReadAttempts: 3,
  userAgent: "svc-mcp",
} as const;

export interface BackendClientOptions extends TransportOptions {
  /** Base address of the REST interface, without `/v1`. */
  baseUrl: string;
  logger?: Logger | undefined;
  /** Attempts per read, first one included. A submit uses the same bound for unsent retries. */
  maxReadAttempts?: number | undefined;
  userAgent?: string | undefined;
}

export interface RequestOptions {
  signal?: AbortSignal | undefined;
}

export interface TaskQuery {
  limit?: number | undefined;
  cursor?: string | undefined;
}

export interface BackendClient {
  /** `endpointId` is `platform/resource`. Never retried once it may have reached the backend. */
  submit(
    key: string,
    endpointId: string,
    input: unknown,
    opts?: RequestOptions,
  ): Promise<SubmitResponse>;
  getTask(key: string, taskId: string, query?: TaskQuery, opts?: RequestOptions): Promise<TaskRead>;
  getFiles(key: string, taskId: string, opts?: RequestOptions): Promise<TaskFiles>;
  getAccount(key: string, opts?: RequestOptions): Promise<Account>;
  getCatalog(key: string, opts?: RequestOptions): Promise<unknown>;
  /** Fetches a file's `public_url` (no Authorization header is sent there). */
  download(url: string, opts?: RequestOptions): Promise<Buffer>;
  /** Any HTTP answer, even 401, counts as reachable. One attempt, no key. */
  ping(opts?: RequestOptions): Promise<{ reachable: boolean; detail?: string }>;
  close(): Promise<void>;
}

type Kind = "read" | "submit";

/** Path templates of the REST routes: the `route` of each exchange reported to metrics. */
export const ROUTES = {
  submit: "/v1/{platform}/{resource}",
  task: "/v1/tasks/{task_id}",
  files: "/v1/tasks/{task_id}/files",
  account: "/v1/account",
  catalog: "/v1/catalog",
  download: "{public_url}",
} as const;

interface Call {
  kind: Kind;
  method: "GET" | "POST";
  route: string;
  url: URL;
  key?: string;
  body?: string;
  signal?: AbortSignal | undefined;
}

function cancelled(): AbortedError {
  return new AbortedError({ code: "aborted", message: "The request was cancelled" });
}

/** Keeps the key out of error messages even when a backend echoes it back. */
function scrub(body: Buffer, key: string | undefined): Buffer | string {
  if (key === undefined || key.length < 4) return body;
  const text = body.toString("utf8");
  return text.includes(key) ? text.split(key).join("[redacted]") : body;
}

function parseJson(body: Buffer, url: URL, status: number): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new UnexpectedResponseError({
      code: "invalid_response",
      status,
      message: `The answer from ${url.origin} is not JSON`,
    });
  }
}

function expectFields<T>(value: unknown, fields: Record<string, string>, url: URL): T {
  const record = value as Record<string, unknown> | null;
  for (const [field, type] of Object.entries(fields)) {
    const actual = Array.isArray(record?.[field]) ? "array" : typeof record?.[field];
    if (typeof record !== "object" || record === null || actual !== type) {
      throw new UnexpectedResponseError({
        code: "invalid_response",
        message: `The answer from ${url.origin} lacks "${field}" (${type})`,
      });
    }
  }
  return value as T;
}

/** A submit failure the caller can trust as "no task was created" stays as it is. */
function submitFailure(error: unknown): unknown {
  if (!(error instanceof BackendError)) return error;
  if (error instanceof ConnectionError && NOT_SENT_CODES.has(error.networkCode ?? "")) {
    return error;
  }
  if (error.status !== undefined && error.status >= 400 && error.status < 500) return error;
  return new SubmitOutcomeUnknownError(error);
}

export function createBackendClient(options: BackendClientOptions): BackendClient {
  const base = options.baseUrl.replace(/\/+$/, "");
  const maxAttempts = options.maxReadAttempts ?? CLIENT_DEFAULTS.maxReadAttempts;
  const userAgent = options.userAgent ?? CLIENT_DEFAULTS.userAgent;
  const transport = createTransport(options);
  const log = options.logger;

  const apiUrl = (path: string) => new URL(`${base}${path}`);

  async function call(spec: Call): Promise<Buffer> {
    const headers: Record<string, string> = { "user-agent": userAgent, accept: "application/json" };
    if (spec.key !== undefined) {
      headers.authorization = `Bearer ${spec.key}`;
      headers["content-type"] = "application/json";
    }
    const where = { method: spec.method, url: `${spec.url.origin}${spec.url.pathname}` };
    for (let attempt = 1; ; attempt++) {
      if (spec.signal?.aborted) throw cancelled();
      let failure: BackendError;
      let retryAfterHeader: string | undefined;
      try {
        const res = await transport.send({ ...spec, headers });
        log?.debug({ ...where, status: res.status, attempt }, "backend answered");
        if (res.status >= 200 && res.status < 300) return res.body;
        failure = errorFromResponse(res.status, scrub(res.body, spec.key), res.headers);
        retryAfterHeader = headerValue(res.headers, "retry-after");
      } catch (error) {
        if (!(error instanceof BackendError)) throw error;
        failure = error;
      }
      const decision = shouldRetry({
        attempt,
        maxAttempts,
        kind: spec.kind,
        status: failure instanceof ConnectionError ? undefined : failure.status,
        errorCode: failure instanceof ConnectionError ? failure.networkCode : undefined,
        retryAfterHeader,
      });
      if (!decision.retry) throw failure;
      log?.warn(
        {
          ...where,
          attempt,
          code: failure.code,
          reason: decision.reason,
          delayMs: decision.delayMs,
        },
        "backend request retried",
      );
      if (!(await sleep(decision.delayMs, spec.signal))) throw cancelled();
    }
  }

  async function getJson(
    key: string,
    route: string,
    path: string,
    opts?: RequestOptions,
  ): Promise<unknown> {
    const url = apiUrl(path);
    const body = await call({ kind: "read", method: "GET", route, url, key, signal: opts?.signal });
    return parseJson(body, url, 200);
  }

  const taskPath = (taskId: string) => `/v1/tasks/${encodeURIComponent(taskId)}`;

  return {
    async submit(key, endpointId, input, opts) {
      const segments = endpointId.split("/");
      if (segments.length !== 2 || segments.some((segment) => segment === "")) {
        throw new InvalidRequestError({
          code: "invalid_endpoint",
          message: `An endpoint id looks like "platform/resource", got "${endpointId}"`,
        });
      }
      if (opts?.signal?.aborted) throw cancelled();
      const url = apiUrl(`/v1/${segments.map(encodeURIComponent).join("/")}`);
      try {
        const body = await call({
          kind: "submit",
          method: "POST",
          route: ROUTES.submit,
          url,
          key,
          body: JSON.stringify(input),
          signal: opts?.signal,
        });
        const json = parseJson(body, url, 202);
        return expectFields<SubmitResponse>(json, { task_id: "string", status: "string" }, url);
      } catch (error) {
        throw submitFailure(error);
      }
    },

    async getTask(key, taskId, query, opts) {
      const params = new URLSearchParams();
      if (query?.limit !== undefined) params.set("limit", String(query.limit));
      if (query?.cursor !== undefined) params.set("cursor", query.cursor);
      const search = params.size > 0 ? `?${params}` : "";
      const json = await getJson(key, ROUTES.task, `${taskPath(taskId)}${search}`, opts);
      return expectFields<TaskRead>(json, { task_id: "string", status: "string" }, apiUrl("/"));
    },

    async getFiles(key, taskId, opts) {
      const json = await getJson(key, ROUTES.files, `${taskPath(taskId)}/files`, opts);
      return expectFields<TaskFiles>(json, { files: "array" }, apiUrl("/"));
    },

    async getAccount(key, opts) {
      const json = await getJson(key, ROUTES.account, "/v1/account", opts);
      return expectFields<Account>(json, { key_id: "string", credits: "object" }, apiUrl("/"));
    },

    getCatalog: (key, opts) => getJson(key, ROUTES.catalog, "/v1/catalog", opts),

    async download(address, opts) {
      let url: URL;
      try {
        url = new URL(address);
      } catch {
        throw new InvalidRequestError({ code: "invalid_url", message: `Not a URL: "${address}"` });
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw new InvalidRequestError({
          code: "invalid_url",
          message: `A file URL must use http or https, got "${url.protocol}"`,
        });
      }
      return call({
        kind: "read",
        method: "GET",
        route: ROUTES.download,
        url,
        signal: opts?.signal,
      });
    },

    async ping(opts) {
      const url = apiUrl("/v1/account");
      try {
        const res = await transport.send({
          method: "GET",
          route: ROUTES.account,
          url,
          headers: { "user-agent": userAgent, accept: "application/json" },
          signal: opts?.signal,
        });
        return { reachable: true, detail: `HTTP ${res.status}` };
      } catch (error) {
        return { reachable: false, detail: error instanceof Error ? error.message : String(error) };
      }
    },

    close: () => transport.close(),
  };
}
