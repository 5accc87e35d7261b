/**
 * /healthz and /readyz while the backend goes away and comes back. Liveness never depends on the
 * backend; readiness follows whether the backend can be reached, polled (bounded) on loopback.
 */
import { describe, expect, it } from "vitest";
import { textOf } from "../tools/harness.js";
import { executeCall, type FaultStack } from "./fault-stack.js";
import { guardedStacks } from "./guard.js";

const stacks = guardedStacks();

const POLLS = 50;
const POLL_EVERY_MS = 100;

/** Polls /readyz until it answers `status`; fails after POLLS tries. Returns the body. */
async function readyzTurns(stack: FaultStack, status: number): Promise<unknown> {
  let last = 0;
  for (let poll = 0; poll < POLLS; poll++) {
    const res = await fetch(`${stack.baseUrl}/readyz`);
    last = res.status;
    const body = await res.json();
    if (res.status === status) return body;
    await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
  }
  throw new Error(`/readyz still answers ${last} after ${POLLS} polls, expected ${status}`);
}

const SUBMIT = executeCall("porto");

describe("/readyz", () => {
  it("turns red while the backend refuses connections and green once it is back", async () => {
    const stack = await stacks.start();
    const client = await stack.connect();
    await readyzTurns(stack, 200);

    await stack.proxy.down();
    expect(await readyzTurns(stack, 503)).toMatchObject({
      status: "not_ready",
      backend: { reachable: false, detail: expect.stringMatching(/ECONNREFUSED/) },
    });

    // Meanwhile every call is answered: a submit that was never sent, and a read.
    const submit = await client.callTool(SUBMIT);
    expect(submit.isError).toBe(true);
    expect(textOf(submit as never)).toMatch(
      /^connection_error: Backend unreachable at .*ECONNREFUSED[\s\S]*try again shortly/,
    );
    const read = await client.callTool({ name: "svc_get_task", arguments: { task_id: "tsk_x" } });
    expect(read.isError).toBe(true);
    expect(textOf(read as never)).toMatch(/call svc_get_task with task_id "tsk_x" again/);
    expect(stack.proxy.count("submit")).toBe(0);
    expect(stack.tasksCreated()).toBe(0);

    await stack.proxy.up();
    expect(await readyzTurns(stack, 200)).toMatchObject({ status: "ready" });
    const after = await client.callTool(SUBMIT);
    expect(after.structuredContent).toMatchObject({ status: "succeeded" });
    expect(stack.tasksCreated()).toBe(1);
  });

  it("turns red while the backend resets every connection", async () => {
    const stack = await stacks.start();
    for (const route of ["account", "task", "files", "submit", "other"] as const) {
      stack.proxy.inject(route, { kind: "reset" });
    }
    expect(await readyzTurns(stack, 503)).toMatchObject({ backend: { reachable: false } });
    stack.proxy.clear();
    await readyzTurns(stack, 200);
  });

  it("turns red while the backend accepts and never answers", async () => {
    const stack = await stacks.start();
    stack.proxy.inject("account", { kind: "hang" });
    expect(await readyzTurns(stack, 503)).toMatchObject({
      backend: { reachable: false, detail: expect.stringMatching(/No answer .* within 800 ms/) },
    });
    stack.proxy.clear();
    await readyzTurns(stack, 200);
  });

  it("stays green while the backend answers 5xx: it is reachable, and calls get its errors", async () => {
    const stack = await stacks.start();
    stack.proxy.inject("account", { kind: "status", status: 503 });
    expect(await readyzTurns(stack, 200)).toMatchObject({
      backend: { reachable: true, detail: "HTTP 503" },
    });
  });

  it("does not keep clients out: one connects while the backend is down and works once it is back", async () => {
    const stack = await stacks.start();
    await stack.proxy.down();
    await readyzTurns(stack, 503);

    const client = await stack.connect();
    const account = await client.callTool({ name: "svc_account", arguments: {} });
    expect(account.isError).toBe(true);
    expect(textOf(account as never)).toMatch(/^connection_error: Backend unreachable/);

    await stack.proxy.up();
    await readyzTurns(stack, 200);
    const again = await client.callTool({ name: "svc_account", arguments: {} });
    expect(again.isError).toBeFalsy();
  });
});
