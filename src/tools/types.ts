/** The tools layer's contract with the MCP layer (re-exported by index.ts). */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { BackendClient } from "../backend/client.js";
import type { Catalog, JsonSchema } from "../catalog/types.js";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";

export type { CallToolResult, JsonSchema };

export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolContext {
  /** The caller's key, passed to every backend call. */
  apiKey: string;
  /** Fires on MCP cancellation, a closed connection, or server shutdown. */
  signal: AbortSignal;
  /**
   * For a submit: like `signal`, except that shutdown does not fire it (ending the call after the
   * grace does). A submit already sent then finishes, so the client gets its task_id instead of
   * "outcome unknown" for a task that exists. Default: `signal`.
   */
  submitSignal?: AbortSignal;
  /** Present only when the client sent a progressToken. */
  progress?: (p: ToolProgress) => Promise<void>;
  logger: Logger;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** Exactly what tools/list shows. */
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /** False for the tools `?readonly=true` keeps: list, search, describe, get_task, get_files, account. */
  spendsCredits: boolean;
  /** `read` tools (get_task, get_files) stay present in filtered mode. */
  kind: "compact" | "typed" | "read";
  platform?: string;
  endpointId?: string;
  /** Validates `args` itself; never throws for bad input or backend errors (isError results). */
  call(args: unknown, ctx: ToolContext): Promise<CallToolResult>;
}

export interface ToolRegistry {
  /** The seven compact tools, in the order tools/list shows them. */
  compact: readonly ToolDefinition[];
  /** One typed tool per catalog endpoint, in catalog order. */
  typed: readonly ToolDefinition[];
  byName(name: string): ToolDefinition | undefined;
}

export interface ToolDeps {
  catalog: Catalog;
  backend: BackendClient;
  config: Config;
}
