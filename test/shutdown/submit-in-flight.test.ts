/**
 * Regression: a shutdown that came while a submit was on its way aborted the submit, so the client
 * heard "submit outcome unknown" for a task that the backend had created. Shutdown now stops the
 * waits only: a submit already sent finishes within the grace and the answer carries its task_id.
 */
import { describe, expect, it } from "vitest";
import { executeCall } from "../faults/fault-stack.js";
import { guardedStacks } from "../faults/guard.js";

const stacks = guardedStacks();

describe("shutdown while a submit is in flight", () => {
  it("lets the submit finish and answers its task_id and status, without waiting", async () => {
    const stack = await stacks.start({
      sandbox: { slowMs: 60_000 },
      env: { SVC_HEADERS_TIMEOUT_MS: "20000" },
    });
    const client = await stack.connect();
    // The sandbox gets the submit at once; its answer is held long after the shutdown starts.
    stack.proxy.inject("submit", { kind: "delay", ms: 1_500 });

    const answer = client.callTool(executeCall("sandbox:slow", 45), undefined, {
      timeout: 60_000,
    });
    await stack.proxy.waitFor("submit", 1);
    expect((await stack.stopHealthWatch()).failures).toEqual([]);
    await stack.server.close();
    const result = await answer;

    expect(result.isError).toBeFalsy();
    const task = result.structuredContent as { task_id: string; status: string; next_step: string };
    expect(["queued", "running"]).toContain(task.status);
    expect(task.next_step).toContain(`Do not resubmit`);
    expect(task.next_step).toContain(JSON.stringify(task.task_id));
    expect(stack.tasksCreated()).toBe(1);
    // The task_id is the one the sandbox created for this submit.
    const read = await fetch(`${stack.sandbox.url}/v1/tasks/${task.task_id}`, {
      headers: { Authorization: `Bearer ${stack.key}` },
    });
    expect(read.status).toBe(200);
  });
});
