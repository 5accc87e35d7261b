/**
 * Reads under faults (task reads, file listing, account), through the SDK client -> server ->
 * fault proxy -> sandbox. Transient 5xx and resets are retried and the call succeeds; a read
 * that keeps failing, or gets no answer in time, is a clear isError naming the code, what
 * happened and what to do next, with the task_id to read later.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import type { Fault, Route } from "../helpers/fault-proxy.js";
import { textOf } from "../tools/harness.js";
import { executeCall, type FaultStack } from "./fault-stack.js";
import { guardedStacks } from "./guard.js";

const stacks = guardedStacks();

/** A stack with one succeeded task (finished as soon as it is submitted). */
async function withTask(): Promise<{ stack: FaultStack; client: Client; taskId: string }> {
  const stack = await stacks.start({ sandbox: { queuedMs: 0, runningMs: 0 } });
  const client = await stack.connect();
  const run = await client.callTool(executeCall("lisbon"));
  const task = run.structuredContent as { task_id: string; status: string };
  expect(task.status).toBe("succeeded");
  return { stack, client, taskId: task.task_id };
}

interface ReadTool {
  route: Route;
  tool: string;
  args(taskId: string): Record<string, unknown>;
  /** Checks the content of a successful result. */
  answered(data: Record<string, unknown>, taskId: string): void;
}

const READ_TOOLS: ReadTool[] = [
  {
    route: "task",
    tool: "svc_get_task",
    args: (task_id) => ({ task_id, limit: 5 }),
    answered(data, taskId) {
      expect(data).toMatchObject({ task_id: taskId, status: "succeeded" });
      expect(data.items).toHaveLength(5);
    },
  },
  {
    route: "files",
    tool: "svc_get_files",
    args: (task_id) => ({ task_id }),
    answered(data, taskId) {
      expect(data.task_id).toBe(taskId);
      expect(data.files).toEqual([expect.objectContaining({ file_type: "raw_jsonl" })]);
    },
  },
  {
    route: "account",
    tool: "svc_account",
    args: () => ({}),
    answered(data) {
      expect(data).toHaveProperty("credits.balance");
    },
  },
];

interface RecoveringCase {
  name: string;
  fault: Fault;
  times?: number;
  /** Requests on the route: the faulted ones and the one that answered. */
  attempts: number;
}

const RECOVERING: RecoveringCase[] = [
  { name: "503 twice", fault: { kind: "status", status: 503 }, times: 2, attempts: 3 },
  { name: "reset twice", fault: { kind: "reset" }, times: 2, attempts: 3 },
  {
    name: "reset after the sandbox answered, twice",
    fault: { kind: "reset", forward: true },
    times: 2,
    attempts: 3,
  },
  { name: "a closed connection twice", fault: { kind: "drop" }, times: 2, attempts: 3 },
  { name: "a slow answer", fault: { kind: "delay", ms: 200 }, attempts: 1 },
];

interface FailingCase {
  name: string;
  fault: Fault;
  times?: number;
  attempts: number;
  /** The code and what happened, as the result states them. */
  said: RegExp;
  /** The advice when the task_id is not in play (svc_account). */
  advice: RegExp;
}

const FAILING: FailingCase[] = [
  {
    name: "503 on every attempt",
    fault: { kind: "status", status: 503 },
    attempts: 3,
    said: /internal: The service is temporarily unavailable \(HTTP 503\)/,
    advice: /try again/i,
  },
  {
    name: "reset on every attempt",
    fault: { kind: "reset" },
    attempts: 3,
    said: /connection_error: Connection to http:\/\/127\.0\.0\.1:\d+ failed/,
    advice: /unreachable or slow; try again shortly/,
  },
  {
    name: "no answer (headers timeout), not retried",
    fault: { kind: "hang" },
    times: 1,
    attempts: 1,
    said: /timeout: No answer from http:\/\/127\.0\.0\.1:\d+ within 800 ms/,
    advice: /unreachable or slow; try again shortly/,
  },
  {
    name: "a body that stalls (body timeout), not retried",
    fault: { kind: "stall" },
    times: 1,
    attempts: 1,
    said: /timeout: The answer from http:\/\/127\.0\.0\.1:\d+ stalled for more than 800 ms/,
    advice: /unreachable or slow; try again shortly/,
  },
];

describe.each(READ_TOOLS)("$tool ($route route)", (read) => {
  it.each(RECOVERING)("recovers from $name", async (c) => {
    const { stack, client, taskId } = await withTask();
    stack.proxy.inject(read.route, c.fault, { times: c.times });
    const before = stack.proxy.count(read.route);

    const result = await client.callTool({ name: read.tool, arguments: read.args(taskId) });

    expect(result.isError, textOf(result as never)).toBeFalsy();
    read.answered(result.structuredContent as Record<string, unknown>, taskId);
    expect(stack.proxy.count(read.route) - before).toBe(c.attempts);
    expect(stack.proxy.count("submit")).toBe(1);
    expect(stack.tasksCreated()).toBe(1);
  });

  it.each(FAILING)("answers a clear isError after $name", async (c) => {
    const { stack, client, taskId } = await withTask();
    stack.proxy.inject(read.route, c.fault, { times: c.times });
    const before = stack.proxy.count(read.route);

    const result = await client.callTool({ name: read.tool, arguments: read.args(taskId) });

    expect(result.isError).toBe(true);
    const text = textOf(result as never);
    expect(text).toMatch(c.said);
    if (read.route === "account") expect(text).toMatch(c.advice);
    else {
      expect(text).toContain(taskId);
      expect(text).toMatch(/Do not resubmit/);
      expect(text).toMatch(new RegExp(`${read.tool} with task_id "${taskId}"`));
    }
    expect(text).not.toContain(stack.key);
    expect(stack.proxy.count(read.route) - before).toBe(c.attempts);

    // Once the fault is gone, the same call answers.
    stack.proxy.clear();
    const again = await client.callTool({ name: read.tool, arguments: read.args(taskId) });
    expect(again.isError, textOf(again as never)).toBeFalsy();
    read.answered(again.structuredContent as Record<string, unknown>, taskId);
    expect(stack.tasksCreated()).toBe(1);
  });
});
