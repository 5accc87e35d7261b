/**
 * Per-test fault stacks and the checks every fault test ends with: /healthz stayed green, no
 * promise was rejected unhandled anywhere in the process (server, sandbox, proxy and test run
 * in-process), and nothing was logged at level error.
 */
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import {
  errorLines,
  type FaultStack,
  type FaultStackOptions,
  startFaultStack,
} from "./fault-stack.js";

export interface GuardedStacks {
  start(options?: FaultStackOptions): Promise<FaultStack>;
}

export function guardedStacks(): GuardedStacks {
  let stacks: FaultStack[] = [];
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);

  beforeAll(() => {
    process.on("unhandledRejection", onRejection);
  });
  afterAll(() => {
    process.off("unhandledRejection", onRejection);
  });
  afterEach(async () => {
    const running = stacks;
    stacks = [];
    const health = await Promise.all(running.map((stack) => stack.stopHealthWatch()));
    await Promise.all(running.map((stack) => stack.close()));
    for (const record of health) {
      expect(record.checks).toBeGreaterThan(0);
      expect(record.failures).toEqual([]);
    }
    for (const stack of running) expect(errorLines(stack.logs)).toEqual([]);
    expect(rejections.splice(0)).toEqual([]);
  });

  return {
    async start(options) {
      const stack = await startFaultStack(options);
      stacks.push(stack);
      return stack;
    },
  };
}
