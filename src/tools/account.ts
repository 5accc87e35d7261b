/** svc_account: is the key accepted, its credits and limits, and this server's own bounds. */
import { AuthenticationError } from "../backend/index.js";
import { defineTool } from "./define-tool.js";
import { structuredResult } from "./results.js";
import { ANY_OBJECT, objectSchema } from "./schemas.js";
import type { ToolDefinition, ToolDeps } from "./types.js";

export function createAccountTool({ backend, config }: ToolDeps): ToolDefinition {
  const server = {
    wait_seconds: { default: config.wait.defaultSeconds, max: config.wait.maxSeconds },
    result_limit: { default: config.resultLimit.default, max: config.resultLimit.max },
    page_limit: { default: config.resultLimit.default, max: config.resultLimit.max },
    inline_max_bytes: config.inlineMaxBytes,
  };
  return defineTool<Record<string, never>>({
    name: "svc_account",
    title: "Account",
    description:
      "Whether the API key is accepted, its fingerprint, credits and limits, and this server's " +
      "bounds (wait_seconds, result_limit, page limit).",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    outputSchema: objectSchema(
      {
        authenticated: { type: "boolean" },
        key_id: { type: "string" },
        credits: ANY_OBJECT,
        limits: ANY_OBJECT,
        server: ANY_OBJECT,
      },
      ["authenticated", "server"],
    ),
    annotations: { readOnlyHint: true, openWorldHint: false },
    spendsCredits: false,
    kind: "compact",
    async handler(_args, ctx) {
      try {
        const account = await backend.getAccount(ctx.apiKey, { signal: ctx.signal });
        const { key_id, credits, limits } = account;
        return structuredResult({ authenticated: true, key_id, credits, limits, server });
      } catch (error) {
        if (!(error instanceof AuthenticationError)) throw error;
        return structuredResult({
          authenticated: false,
          error: `${error.code}: ${error.message}`,
          server,
        });
      }
    },
  });
}
