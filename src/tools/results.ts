/**
 * The two shapes of a tool result: structured data (as `structuredContent` plus the same JSON as
 * text, for clients that only read text) and an `isError` result whose text the model can act on.
 * Error results carry no `structuredContent`: clients validate it against the success schema.
 */
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";

/**
 * `JSON.stringify(data)`, with the top-level values named in `serialized` taken as already
 * serialized (each must be `JSON.stringify` of that value), so that large values are not
 * serialized twice.
 */
export function jsonOf(
  data: Record<string, unknown>,
  serialized?: Readonly<Record<string, string>>,
): string {
  if (!serialized) return JSON.stringify(data);
  const members: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    const json = Object.hasOwn(serialized, key) ? serialized[key] : JSON.stringify(value);
    if (json !== undefined) members.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${members.join(",")}}`;
}

export function structuredResult(
  data: Record<string, unknown>,
  extraContent: ContentBlock[] = [],
  serialized?: Readonly<Record<string, string>>,
): CallToolResult {
  return {
    content: [{ type: "text", text: jsonOf(data, serialized) }, ...extraContent],
    structuredContent: data,
  };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
