/**
 * Random tool calls generated from each tool's input schema, with what must follow: valid
 * arguments reach the backend (a collection creates exactly one task and returns its task_id);
 * invalid ones give an `isError` result naming the broken path, and nothing reaches the backend.
 * Typed tools are generated from their full catalog schema (the listed schema omits the
 * "at least one of" rules, which the description states instead).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { pointerToPath } from "../../src/catalog/messages.js";
import type { Catalog, JsonSchema } from "../../src/catalog/types.js";
import { DEFAULTS } from "../../src/config.js";
import type { ToolDefinition, ToolRegistry } from "../../src/tools/index.js";
import { type Hints, validValue } from "./schema-arbitraries.js";
import { invalidValue } from "./schema-mutations.js";

export interface ToolCase {
  tool: string;
  /** Which address lists the tool: the default one or the all-platforms filter. */
  address: "compact" | "typed";
  args: Record<string, unknown>;
  expect: { valid: true; createsTask: boolean } | { valid: false; path: string };
}

export interface Fixtures {
  /** A loopback receiver: the only callback_url the generated calls use. */
  callbackUrl: string;
  /** Tasks that exist for the fuzzing key (succeeded, failed). */
  taskIds: readonly string[];
  /** A real next_cursor of the first task. */
  cursor: string;
}

const TASK_STATUSES = ["queued", "running", "succeeded", "failed"];
const INVALID_PREFIXES = ["Invalid arguments (nothing was sent):", "Invalid input for "];

function hintsFor(catalog: Catalog, fixtures: Fixtures): Hints {
  const ids = catalog.endpoints.map((e) => e.public_id);
  const tools = catalog.endpoints.map((e) => e.tool_name);
  const tags = [...new Set(catalog.endpoints.flatMap((e) => e.tags))];
  const text = fc.string({ minLength: 1, maxLength: 40 });
  return {
    callback_url: fc.webSegment().map((segment) => `${fixtures.callbackUrl}/${segment}`),
    task_id: fc.oneof(
      fc.constantFrom(...fixtures.taskIds),
      fc.string({ minLength: 1, maxLength: 200 }),
    ),
    cursor: fc.oneof(fc.constant(fixtures.cursor), fc.string({ minLength: 1, maxLength: 80 })),
    endpoint: fc.oneof(fc.constantFrom(...ids), fc.constantFrom(...tools), text),
    platform: fc.oneof(fc.constantFrom(...catalog.platforms.map((p) => p.platform)), text),
    tag: fc.oneof(fc.constantFrom(...tags), text),
    // Mostly 0 (one read, no polling), so that thousands of calls stay fast; any valid value too.
    wait_seconds: fc.oneof(
      { weight: 9, arbitrary: fc.constant(0) },
      fc.double({ min: 0, max: DEFAULTS.waitMaxSeconds, noNaN: true }),
    ),
  };
}

/**
 * The SDK's request parsing (zod) drops a `__proto__` field before any tool sees it: it is neither
 * applied nor forwarded, so the call proceeds as if it were absent.
 */
const DROPPED_BY_THE_SDK = "/__proto__";

function casesOf(
  tool: ToolDefinition,
  schema: JsonSchema,
  hints: Hints,
  address: ToolCase["address"],
): fc.Arbitrary<ToolCase> {
  const createsTask = tool.spendsCredits;
  return fc.oneof(
    validValue(schema, hints).map((args) => ({
      tool: tool.name,
      address,
      args: args as Record<string, unknown>,
      expect: { valid: true as const, createsTask },
    })),
    invalidValue(schema, hints).map(({ value, pointer }) => ({
      tool: tool.name,
      address,
      args: value as Record<string, unknown>,
      expect:
        pointer === DROPPED_BY_THE_SDK
          ? { valid: true as const, createsTask }
          : { valid: false as const, path: pointerToPath(pointer) },
    })),
  );
}

/** svc_execute: a real endpoint id with an input generated from that endpoint's schema. */
function executeCases(
  tool: ToolDefinition,
  catalog: Catalog,
  hints: Hints,
): fc.Arbitrary<ToolCase> {
  return fc.constantFrom(...catalog.endpoints).chain((endpoint) => {
    const withEndpoint = { ...hints, endpoint: fc.constant(endpoint.public_id) };
    const validInput = validValue(endpoint.input_schema, hints);
    const outer = casesOf(
      tool,
      tool.inputSchema,
      { ...withEndpoint, input: validInput },
      "compact",
    );
    const badInput = fc
      .tuple(
        validValue(tool.inputSchema, { ...withEndpoint, input: fc.constant({}) }),
        invalidValue(endpoint.input_schema, hints),
      )
      .map(([args, bad]) => ({
        tool: tool.name,
        address: "compact" as const,
        args: { ...(args as Record<string, unknown>), input: bad.value },
        expect: { valid: false as const, path: pointerToPath(bad.pointer) },
      }));
    return fc.oneof(outer, badInput);
  });
}

export function toolCases(
  registry: ToolRegistry,
  catalog: Catalog,
  fixtures: Fixtures,
): fc.Arbitrary<ToolCase> {
  const hints = hintsFor(catalog, fixtures);
  const compact = registry.compact.map((tool) =>
    tool.name === "svc_execute"
      ? executeCases(tool, catalog, hints)
      : casesOf(tool, tool.inputSchema, hints, "compact"),
  );
  const typed = registry.typed.map((tool) => {
    const endpoint = catalog.endpoints.find((e) => e.public_id === tool.endpointId);
    if (!endpoint) throw new Error(`no catalog endpoint for ${tool.name}`);
    return casesOf(tool, endpoint.input_schema, hints, "typed");
  });
  return fc.oneof(...compact, ...typed);
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

/** Throws an Error naming the broken rule; `created` is the number of tasks the call created. */
export function checkToolResult(testCase: ToolCase, result: CallToolResult, created: number): void {
  const text = textOf(result);
  const fail = (rule: string) => {
    throw new Error(
      `${rule} (created ${created} task(s); result ${JSON.stringify(text.slice(0, 400))})`,
    );
  };
  if (/internal[_ ]error/i.test(text)) fail("an internal error");
  const rejected = INVALID_PREFIXES.some((prefix) => text.startsWith(prefix));
  if (!testCase.expect.valid) {
    if (result.isError !== true || !rejected) fail("invalid arguments not refused as such");
    if (!text.includes(`\n- ${testCase.expect.path}`))
      fail(`the refusal does not name ${testCase.expect.path}`);
    if (created !== 0) fail("invalid arguments reached the backend");
    return;
  }
  if (rejected) fail("valid arguments refused as invalid");
  if (!testCase.expect.createsTask) {
    if (created !== 0) fail("a read-only tool created a task");
    return;
  }
  const data = result.structuredContent as { task_id?: unknown; status?: unknown } | undefined;
  if (result.isError || typeof data?.task_id !== "string")
    fail("a valid collection without a task_id");
  if (!TASK_STATUSES.includes(String(data?.status))) fail("a task status outside the interface");
  if (created !== 1) fail("a valid collection did not create exactly one task");
}
