/**
 * Builds a `ToolDefinition` from a tool file's parts. The argument validator is compiled here,
 * once, when the registry is built; every call is validated, and anything a handler throws becomes
 * an `isError` result, so `call` never throws.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createSchemaValidator, type SchemaValidator } from "../catalog/validator.js";
import { errorResultFrom, invalidArgumentsResult } from "./errors.js";
import type { ToolContext, ToolDefinition } from "./types.js";

export interface ToolSpec<Args> extends Omit<ToolDefinition, "call"> {
  /** Replaces the validator compiled from `inputSchema` (typed tools validate in the runner). */
  validate?: SchemaValidator<Args>;
  handler(args: Args, ctx: ToolContext): Promise<CallToolResult>;
}

export function defineTool<Args>(spec: ToolSpec<Args>): ToolDefinition {
  const { validate = createSchemaValidator<Args>(spec.inputSchema), handler, ...meta } = spec;
  return {
    ...meta,
    async call(args, ctx) {
      const checked = validate(args ?? {});
      if (!checked.valid) return invalidArgumentsResult(checked.violations);
      const taskId = (checked.data as { task_id?: unknown }).task_id;
      try {
        return await handler(checked.data, ctx);
      } catch (error) {
        return errorResultFrom(error, {
          apiKey: ctx.apiKey,
          logger: ctx.logger,
          tool: meta.name,
          ...(typeof taskId === "string" ? { taskId } : {}),
        });
      }
    },
  };
}
