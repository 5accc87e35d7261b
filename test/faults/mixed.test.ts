/**
 * Many clients at once while every route misbehaves some of the time: each call is answered,
 * each call sends its submit once, and the sandbox holds exactly one task per submit that reached
 * it — never a second one.
 */
import { describe, expect, it } from "vitest";
import type { Fault, Route } from "../helpers/fault-proxy.js";
import { textOf } from "../tools/harness.js";
import { executeCall } from "./fault-stack.js";
import { guardedStacks } from "./guard.js";

const stacks = guardedStacks();

const CLIENTS = 12;

const FAULTS: Fault[] = [
  { kind: "status", status: 503 },
  { kind: "status", status: 500, forward: true },
  { kind: "reset" },
  { kind: "reset", forward: true },
  { kind: "drop", forward: true },
  { kind: "hang", forward: true },
  { kind: "delay", ms: 150 },
];

/** What a tool call may answer under faults; anything else fails the test. */
const KNOWN_ERRORS =
  /^((submit_outcome_unknown|internal|connection_error|timeout): |Task \S+ is (queued|running): )/;

describe("concurrent clients under mixed faults", () => {
  it("answer every call and never create a task twice", async () => {
    const stack = await stacks.start();
    const clients = await Promise.all(Array.from({ length: CLIENTS }, () => stack.connect()));
    for (const route of ["submit", "task", "files"] satisfies Route[]) {
      for (const fault of FAULTS) stack.proxy.inject(route, fault, { times: 1 });
    }

    const outcomes = await Promise.all(
      clients.map(async (client, i) => {
        const run = await client.callTool(executeCall(`city ${i}`));
        if (run.isError) return { error: textOf(run as never) };
        const { task_id } = run.structuredContent as { task_id: string };
        const files = await client.callTool({ name: "svc_get_files", arguments: { task_id } });
        return { task_id, files };
      }),
    );

    const taskIds: string[] = [];
    for (const outcome of outcomes) {
      if ("error" in outcome) {
        expect(outcome.error).toMatch(KNOWN_ERRORS);
        continue;
      }
      taskIds.push(outcome.task_id);
      const text = textOf(outcome.files as never);
      if (outcome.files.isError) {
        expect(text).toMatch(KNOWN_ERRORS);
        expect(text).toContain(outcome.task_id);
      }
    }
    expect(new Set(taskIds).size).toBe(taskIds.length);
    expect(stack.proxy.count("submit")).toBe(CLIENTS);
    const forwarded = stack.proxy.requests.filter((r) => r.route === "submit" && r.forwarded);
    expect(stack.tasksCreated()).toBe(forwarded.length);
    expect(taskIds.length).toBeLessThanOrEqual(forwarded.length);
  });
});
