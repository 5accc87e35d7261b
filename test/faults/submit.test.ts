/**
 * A submit under faults, through the SDK client -> server -> fault proxy -> sandbox. Whatever
 * happens between the server and the backend, one tool call sends the submit at most once, so no
 * task is ever created twice; a failure after the request may have reached the backend is
 * reported as an unknown outcome, never retried.
 */
import { describe, expect, it } from "vitest";
import type { Fault } from "../helpers/fault-proxy.js";
import { textOf } from "../tools/harness.js";
import { executeCall } from "./fault-stack.js";
import { guardedStacks } from "./guard.js";

const stacks = guardedStacks();

const EXECUTE = executeCall("bakeries");

interface SubmitCase {
  name: string;
  fault: Fault;
  /** Tasks the sandbox holds afterwards: the request reached it or not. */
  created: 0 | 1;
  /** What the backend client saw, as named in the result. */
  cause: RegExp;
}

const UNKNOWN_OUTCOMES: SubmitCase[] = [
  {
    name: "a 503 from a gateway that never reached the sandbox",
    fault: { kind: "status", status: 503 },
    created: 0,
    cause: /HTTP 503/,
  },
  {
    name: "a 500 after the sandbox created the task",
    fault: { kind: "status", status: 500, forward: true },
    created: 1,
    cause: /HTTP 500/,
  },
  {
    name: "a 502 with an HTML body after the sandbox created the task",
    fault: {
      kind: "status",
      status: 502,
      forward: true,
      body: "<html><body>Bad Gateway</body></html>",
      contentType: "text/html",
    },
    created: 1,
    cause: /HTTP 502 Bad Gateway with an unexpected body: "<html>/,
  },
  {
    name: "a reset before the request reached the sandbox",
    fault: { kind: "reset" },
    created: 0,
    cause: /Connection to .* failed/,
  },
  {
    name: "a reset after the sandbox created the task, before the answer",
    fault: { kind: "reset", forward: true },
    created: 1,
    cause: /Connection to .* failed/,
  },
  {
    name: "a closed connection, no answer, after the sandbox created the task",
    fault: { kind: "drop", forward: true },
    created: 1,
    cause: /Connection to .* failed: connection closed by the other side \(UND_ERR_SOCKET\)/,
  },
  {
    name: "no answer (headers timeout) after the sandbox created the task",
    fault: { kind: "hang", forward: true },
    created: 1,
    cause: /No answer from .* within 800 ms/,
  },
  {
    name: "no answer (headers timeout) from a proxy that kept the request",
    fault: { kind: "hang" },
    created: 0,
    cause: /No answer from .* within 800 ms/,
  },
  {
    name: "a 202 whose body stalls after the sandbox created the task",
    fault: { kind: "stall" },
    created: 1,
    cause: /stalled for more than 800 ms/,
  },
];

describe("a submit whose outcome is unknown", () => {
  it.each(UNKNOWN_OUTCOMES)("$name: sent once, reported, never retried", async (c) => {
    const stack = await stacks.start();
    const client = await stack.connect();
    stack.proxy.inject("submit", c.fault);

    const result = await client.callTool(EXECUTE);

    expect(result.isError).toBe(true);
    const text = textOf(result as never);
    expect(text).toMatch(/^submit_outcome_unknown: The submit may or may not have created a task/);
    expect(text).toMatch(c.cause);
    expect(text).toMatch(/It was not retried, so that no task is created twice/);
    expect(text).toMatch(/Do not resubmit blindly: check svc_account/);
    expect(text).not.toContain(stack.key);
    expect(stack.proxy.count("submit")).toBe(1);
    expect(stack.proxy.requests.find((r) => r.route === "submit")?.forwarded).toBe(c.created === 1);
    expect(stack.tasksCreated()).toBe(c.created);
  });

  it("is the same through a typed tool", async () => {
    const stack = await stacks.start();
    const client = await stack.connect("tools=social-network-ad-library_company-search");
    stack.proxy.inject("submit", { kind: "reset", forward: true });

    const result = await client.callTool({
      name: "svc_social_network_ad_library_company_search",
      arguments: { query: "bakeries" },
    });

    expect(result.isError).toBe(true);
    expect(textOf(result as never)).toMatch(/^submit_outcome_unknown: /);
    expect(stack.proxy.count("submit")).toBe(1);
    expect(stack.tasksCreated()).toBe(1);
  });
});

describe("a submit that does reach an answer", () => {
  it("a slow answer within the timeout gives the task and its records", async () => {
    const stack = await stacks.start();
    const client = await stack.connect();
    stack.proxy.inject("submit", { kind: "delay", ms: 200 });

    const result = await client.callTool(EXECUTE);

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: "succeeded" });
    expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(3);
    expect(stack.proxy.count("submit")).toBe(1);
    expect(stack.tasksCreated()).toBe(1);
  });

  it("a 429 is final for a submit: reported with the wait, nothing created, not retried", async () => {
    const stack = await stacks.start();
    const client = await stack.connect();
    stack.proxy.inject("submit", {
      kind: "status",
      status: 429,
      body: JSON.stringify({ error: { code: "rate_limited", message: "Slow down" } }),
    });

    const result = await client.callTool(EXECUTE);

    expect(result.isError).toBe(true);
    expect(textOf(result as never)).toMatch(/^rate_limited: Slow down \(HTTP 429\)/);
    expect(stack.proxy.count("submit")).toBe(1);
    expect(stack.tasksCreated()).toBe(0);
  });
});

interface ReadAfterSubmitCase {
  name: string;
  fault: Fault;
  times?: number;
  /** What `next_step` says happened to the read. */
  said: RegExp;
}

const READS_FAIL_AFTER_SUBMIT: ReadAfterSubmitCase[] = [
  {
    name: "503 on every read",
    fault: { kind: "status", status: 503 },
    said: /reading it failed \(internal: The service is temporarily unavailable\)/,
  },
  {
    name: "a reset on every read",
    fault: { kind: "reset" },
    said: /reading it failed \(connection_error: Connection to .* failed/,
  },
  {
    name: "no answer to the first read",
    fault: { kind: "hang" },
    times: 1,
    said: /reading it failed \(timeout: No answer from .* within 800 ms\)/,
  },
];

describe("a submit that succeeded, then reads that fail", () => {
  it.each(READS_FAIL_AFTER_SUBMIT)(
    "$name: the result carries the task_id to read later",
    async (c) => {
      const stack = await stacks.start();
      const client = await stack.connect();
      stack.proxy.inject("task", c.fault, { times: c.times });

      const result = await client.callTool(EXECUTE);

      expect(result.isError).toBeFalsy();
      const data = result.structuredContent as {
        task_id: string;
        status: string;
        next_step: string;
      };
      expect(["queued", "running"]).toContain(data.status);
      expect(data.next_step).toMatch(c.said);
      expect(data.next_step).toContain(
        `Do not resubmit: read it with svc_get_task and task_id ${JSON.stringify(data.task_id)}`,
      );

      // The agent does as told once the backend is back: the one task is there, finished.
      stack.proxy.clear();
      const later = await client.callTool({
        name: "svc_get_task",
        arguments: { task_id: data.task_id, wait_seconds: 10 },
      });
      expect(later.structuredContent).toMatchObject({ task_id: data.task_id, status: "succeeded" });
      expect(stack.proxy.count("submit")).toBe(1);
      expect(stack.tasksCreated()).toBe(1);
    },
  );

  it("recovers within the call from resets on the first reads", async () => {
    const stack = await stacks.start();
    const client = await stack.connect();
    stack.proxy.inject("task", { kind: "reset" }, { times: 2 });

    const result = await client.callTool(EXECUTE);

    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: "succeeded" });
    expect(stack.proxy.count("task", "reset")).toBe(2);
    expect(stack.proxy.count("submit")).toBe(1);
    expect(stack.tasksCreated()).toBe(1);
  });
});
