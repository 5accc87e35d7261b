/**
 * Graceful shutdown while the backend misbehaves: closing the server while a wait is in flight
 * (its read hanging, or failing and being retried) answers the call with the task's current
 * status and its task_id, and the read that was in flight is dropped, not left behind.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import type { Fault } from "../helpers/fault-proxy.js";
import { executeCall, type FaultStack } from "./fault-stack.js";
import { guardedStacks } from "./guard.js";

const stacks = guardedStacks();

/** Tasks run (from the submit on) until the test ends; reads hang until the shutdown ends them. */
const SLOW_BACKEND = {
  sandbox: { queuedMs: 0, slowMs: 60_000 },
  env: { SVC_HEADERS_TIMEOUT_MS: "20000", SVC_BODY_TIMEOUT_MS: "20000" },
};

const SLOW_SUBMIT = executeCall("sandbox:slow", 45);

interface TaskData {
  task_id: string;
  status: string;
  next_step: string;
}

/** Closes the server once the proxy has applied `fault` to a task read; health stays green up to then. */
async function closeOnFault(stack: FaultStack, fault: Fault["kind"]): Promise<void> {
  await stack.proxy.waitFor("task", 1, fault);
  const health = await stack.stopHealthWatch();
  expect(health.failures).toEqual([]);
  await stack.server.close();
  // The server's connections to the backend, the held read among them, are gone.
  for (let poll = 0; poll < 50 && stack.proxy.openConnections() > 0; poll++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(stack.proxy.openConnections()).toBe(0);
}

/**
 * Makes `call` and, at its first progress notification (the wait's first read has answered),
 * arms `fault` on task reads and closes the server once a read meets it. Returns the answer.
 */
async function waitThenFault(
  stack: FaultStack,
  client: Client,
  call: Parameters<Client["callTool"]>[0],
  fault: Fault,
): Promise<TaskData> {
  let closed: Promise<void> | undefined;
  const answer = await client.callTool(call, undefined, {
    onprogress: () => {
      if (closed) return;
      stack.proxy.inject("task", fault);
      closed = closeOnFault(stack, fault.kind);
    },
    timeout: 60_000,
  });
  await closed;
  expect(closed).toBeDefined();
  expect(answer.isError).toBeFalsy();
  return answer.structuredContent as unknown as TaskData;
}

describe("closing the server while a wait is in flight", () => {
  it.each([
    { name: "a read that hangs", fault: { kind: "hang" } as Fault },
    { name: "reads answered 503 and retried", fault: { kind: "status", status: 503 } as Fault },
    { name: "reads that are reset and retried", fault: { kind: "reset" } as Fault },
  ])("svc_execute, during $name: answers the task's status and task_id", async ({ fault }) => {
    const stack = await stacks.start(SLOW_BACKEND);
    const client = await stack.connect();

    const task = await waitThenFault(stack, client, SLOW_SUBMIT, fault);

    expect(task.task_id).toMatch(/^tsk_/);
    expect(task.status).toBe("running");
    expect(task.next_step).toContain(
      `Do not resubmit: call svc_get_task with task_id ${JSON.stringify(task.task_id)}`,
    );
    expect(stack.proxy.count("submit")).toBe(1);
    expect(stack.tasksCreated()).toBe(1);
  });

  it("svc_get_task with wait_seconds, during a read that hangs: answers the status", async () => {
    const stack = await stacks.start(SLOW_BACKEND);
    const client = await stack.connect();
    const run = await client.callTool(executeCall("sandbox:slow", 0));
    const { task_id } = run.structuredContent as unknown as TaskData;

    const task = await waitThenFault(
      stack,
      client,
      { name: "svc_get_task", arguments: { task_id, wait_seconds: 45 } },
      { kind: "hang" },
    );

    expect(task).toMatchObject({ task_id, status: "running" });
    expect(stack.tasksCreated()).toBe(1);
  });

  it("svc_execute, when the first read after the submit hangs: answers the submit's status", async () => {
    const stack = await stacks.start(SLOW_BACKEND);
    const client = await stack.connect();
    stack.proxy.inject("task", { kind: "hang" });

    const result = client.callTool(SLOW_SUBMIT, undefined, { timeout: 60_000 });
    await closeOnFault(stack, "hang");
    const answer = await result;

    expect(answer.isError).toBeFalsy();
    const task = answer.structuredContent as unknown as TaskData;
    expect(["queued", "running"]).toContain(task.status);
    expect(task.next_step).toContain(
      `Do not resubmit: read it with svc_get_task and task_id ${JSON.stringify(task.task_id)}`,
    );
    expect(stack.proxy.count("submit")).toBe(1);
    expect(stack.tasksCreated()).toBe(1);
  });
});
