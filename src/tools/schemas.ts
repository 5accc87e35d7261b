/**
 * Schema parts shown in `tools/list`. Output schemas use plain draft-07 keywords only (clients validate
 * `structuredContent` with a draft-07 validator), and small: the task schema is repeated by every
 * typed tool (51 times in a full listing), so records are plain objects here; their fields are
 * the catalog's output schema, shown by svc_describe_endpoint.
 */
import type { JsonSchema } from "../catalog/types.js";

export function objectSchema(
  properties: Record<string, JsonSchema>,
  required: string[] = [],
): JsonSchema {
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

export const ANY_OBJECT: JsonSchema = { type: "object" };
export const OBJECT_LIST: JsonSchema = { type: "array", items: ANY_OBJECT };
const STRING: JsonSchema = { type: "string" };
const NULLABLE_STRING: JsonSchema = { type: ["string", "null"] };

/** What svc_execute, svc_get_task and every typed tool return. */
export const TASK_OUTPUT_SCHEMA = objectSchema(
  {
    task_id: STRING,
    status: STRING,
    estimated_credits: { type: "number" },
    items: OBJECT_LIST,
    next_cursor: NULLABLE_STRING,
    has_more: { type: "boolean" },
    error_message: NULLABLE_STRING,
    next_step: STRING,
  },
  ["task_id", "status"],
);

/* Input schema parts shared by several tools. Bounds come from the configuration. */

export const TASK_ID_INPUT: JsonSchema = {
  type: "string",
  minLength: 1,
  maxLength: 200,
  description: "task_id returned by svc_execute",
};

export function endpointInput(description: string): JsonSchema {
  return { type: "string", minLength: 1, maxLength: 120, description };
}

export function waitSecondsInput(maxSeconds: number, defaultSeconds: number): JsonSchema {
  return {
    type: "number",
    minimum: 0,
    maximum: maxSeconds,
    default: defaultSeconds,
    description: "Seconds to wait for the task to finish",
  };
}

export function limitInput(max: number, defaultLimit: number, description: string): JsonSchema {
  return { type: "integer", minimum: 1, maximum: max, default: defaultLimit, description };
}
