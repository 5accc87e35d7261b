/** Shared pieces of the sandbox contract tests: one catalog, a sandbox on port 0, plain HTTP calls. */
import { loadCatalog } from "../../src/catalog/index.js";
import {
  type RunningSandbox,
  type StartSandboxOptions,
  startSandbox,
} from "../../src/sandbox/index.js";
import { until } from "./until.js";

export const catalog = loadCatalog();

export const KEY = "key-one";
export const OTHER_KEY = "key-two";

/** A sandbox with fast tasks and two keys; `overrides` change any knob. */
export function startTestSandbox(
  overrides: Partial<Omit<StartSandboxOptions, "catalog">> = {},
): Promise<RunningSandbox> {
  return startSandbox({
    catalog,
    keys: [KEY, OTHER_KEY],
    queuedMs: 10,
    runningMs: 20,
    callbackTimeoutMs: 500,
    callbackBackoffMs: 20,
    ...overrides,
  });
}

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is instead of JSON.stringify(body). */
  rawBody?: string;
  contentType?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field; a wrong field fails the assertion
type LooseJson = any;

export interface Answer<T = LooseJson> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = LooseJson>(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? KEY : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined || options.body !== undefined) {
    body = options.rawBody ?? JSON.stringify(options.body);
    headers["content-type"] = options.contentType ?? "application/json";
  }
  const response = await fetch(`${sandbox.url}${path}`, { method, headers, body });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
  };
}

export function submit(sandbox: RunningSandbox, endpointId: string, input: unknown, key?: string) {
  return call<{ task_id: string; status: string }>(sandbox, "POST", `/v1/${endpointId}`, {
    body: input,
    ...(key === undefined ? {} : { key }),
  });
}

/** Reads the task until its status is one of `statuses` (bounded in attempts and time). */
export async function waitForStatus(
  sandbox: RunningSandbox,
  taskId: string,
  statuses: readonly string[] = ["succeeded", "failed"],
  key = KEY,
) {
  let read: Answer | undefined;
  await until(
    async () => {
      read = await call(sandbox, "GET", `/v1/tasks/${taskId}`, { key });
      return statuses.includes(read.body?.status);
    },
    `task ${taskId} ${statuses.join("/")}`,
  );
  return read as Answer;
}

/** Submits and waits for the terminal state; returns the task id. */
export async function finishedTask(sandbox: RunningSandbox, endpointId: string, input: unknown) {
  const submitted = await submit(sandbox, endpointId, input);
  if (submitted.status !== 202) throw new Error(`submit answered ${submitted.status}`);
  await waitForStatus(sandbox, submitted.body.task_id);
  return submitted.body.task_id;
}

export async function account(sandbox: RunningSandbox, key = KEY) {
  return (await call(sandbox, "GET", "/v1/account", { key })).body as {
    key_id: string;
    credits: { balance: number; used: number };
  };
}
