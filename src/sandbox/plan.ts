/**
 * What a submitted task will do, decided once at submit: its records' seed, how many records it
 * yields, whether it fails and how long it runs. The test inputs work like a payment API's test
 * card numbers: any string input equal to `sandbox:fail`, `sandbox:empty` or `sandbox:slow`.
 */
import { createHash } from "node:crypto";
import type { Catalog, EndpointDescriptor } from "../catalog/types.js";
import type { SandboxOptions } from "./knobs.js";

export const TEST_INPUTS = {
  fail: "sandbox:fail",
  empty: "sandbox:empty",
  slow: "sandbox:slow",
} as const;

export const FAIL_MESSAGE = `the collection failed: the input holds "${TEST_INPUTS.fail}"`;
export const RANDOM_FAIL_MESSAGE = "the collection failed: the platform did not answer in time";

export interface TaskPlan {
  seed: number;
  resultCount: number;
  /** Set when the task is to fail; the reason it reports. */
  failure: string | undefined;
  queuedMs: number;
  runningMs: number;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`,
      );
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Same endpoint and input (callback_url aside), same seed, so the same records. */
export function recordSeed(endpointId: string, input: Record<string, unknown>): number {
  const { callback_url: _ignored, ...rest } = input;
  return createHash("sha256")
    .update(`${endpointId}\n${stableJson(rest)}`)
    .digest()
    .readUInt32BE(0);
}

/** Every string anywhere in the input (nested arrays and objects included). */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

export function planTask(
  catalog: Catalog,
  endpoint: EndpointDescriptor,
  input: Record<string, unknown>,
  options: SandboxOptions,
  random: () => number,
): TaskPlan {
  const values = new Set(strings(input));
  const failure = values.has(TEST_INPUTS.fail)
    ? FAIL_MESSAGE
    : options.failureRate > 0 && random() < options.failureRate
      ? RANDOM_FAIL_MESSAGE
      : undefined;
  return {
    seed: recordSeed(endpoint.public_id, input),
    resultCount: values.has(TEST_INPUTS.empty)
      ? 0
      : catalog.estimate(endpoint.public_id, input).results,
    failure,
    queuedMs: options.queuedMs,
    runningMs: values.has(TEST_INPUTS.slow) ? options.slowMs : options.runningMs,
  };
}
