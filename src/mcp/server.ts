/**
 * The one MCP server factory, shared by Streamable HTTP (a fresh server per POST) and stdio (one
 * server per process). Everything costly (tool lists, validators, instructions) is made before;
 * a server made here only wires two request handlers.
 */
import { setMaxListeners } from "node:events";
import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { nearestNames } from "../catalog/nearest.js";
import type { Logger } from "../log.js";
import type { ToolContext } from "../tools/index.js";
import { linkedSignal } from "./linked-signal.js";
import type { ToolSet } from "./tool-sets.js";

const packageJson = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
) as { version: string };

const SERVER_INFO = { name: "svc-mcp", version: packageJson.version } as const;

const COMPACT_INSTRUCTIONS = [
  "Collects public data from social platforms as asynchronous tasks.",
  "Workflow: svc_search_endpoints (or svc_list_platforms) to find an endpoint ->",
  "svc_describe_endpoint for its input schema and price -> svc_execute to submit (it waits up to",
  "wait_seconds) -> while the task is queued or running, call svc_get_task with its task_id;",
  "then page with svc_get_task, passing next_cursor unchanged as cursor.",
  "Never resubmit a task that is still queued or running: that creates and bills a second task.",
  "svc_get_files gives raw JSONL files; svc_account shows credits.",
].join(" ");

const FILTERED_INSTRUCTIONS = [
  "Collects public data from social platforms as asynchronous tasks.",
  "Each svc_<platform>_<resource> tool takes that endpoint's fields directly, submits a task and",
  "waits for it. While the task is queued or running, call svc_get_task with its task_id; then page",
  "with svc_get_task, passing next_cursor unchanged as cursor.",
  "Never resubmit a task that is still queued or running: that creates and bills a second task.",
  "svc_get_files gives raw JSONL files.",
].join(" ");

export type CallOutcome = "ok" | "tool_error" | "failed" | "cancelled" | "unknown_tool";

export interface ServerSession {
  toolSet: ToolSet;
  /** True when the selection narrowed the tools (typed tools); picks the instructions. */
  filtered: boolean;
  apiKey: string;
  logger: Logger;
  /** Called when a tools/call starts; the function it returns is called once when it ends. */
  observeCall?: (tool: string) => (outcome: CallOutcome) => void;
}

export interface ServerFactoryOptions {
  /** Fires on shutdown: in-flight waits stop and answer with the task's current status. */
  shutdownSignal?: AbortSignal;
}

export type ServerFactory = (session: ServerSession) => Server;

const INTERNAL_ERROR_RESULT: CallToolResult = {
  isError: true,
  content: [{ type: "text", text: "Internal error while running the tool; it was logged." }],
};

export function createServerFactory(options: ServerFactoryOptions = {}): ServerFactory {
  // The SDK builds an Ajv instance per server unless given one; we never ask it to validate.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  // Every call in flight listens to the shutdown signal; many listeners there are expected.
  if (options.shutdownSignal) setMaxListeners(0, options.shutdownSignal);

  return (session) => {
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: {} },
      instructions: session.filtered ? FILTERED_INSTRUCTIONS : COMPACT_INSTRUCTIONS,
      jsonSchemaValidator,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: session.toolSet.listing as never,
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const name = request.params.name;
      const ended = session.observeCall?.(name);
      const tool = session.toolSet.byName.get(name);
      if (!tool) {
        ended?.("unknown_tool");
        const nearest = nearestNames(name, [...session.toolSet.byName.keys()], 3);
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool "${name.slice(0, 80)}" at this address; nearest: ${nearest.join(", ")}`,
        );
      }
      const progressToken = request.params._meta?.progressToken;
      const link = linkedSignal([extra.signal, options.shutdownSignal]);
      const ctx: ToolContext = {
        apiKey: session.apiKey,
        signal: link.signal,
        submitSignal: extra.signal,
        logger: session.logger,
        ...(progressToken === undefined
          ? {}
          : {
              progress: (update) =>
                extra.sendNotification({
                  method: "notifications/progress",
                  params: { progressToken, ...update },
                }),
            }),
      };
      let outcome: CallOutcome = "failed";
      try {
        const result = await tool.call(request.params.arguments ?? {}, ctx);
        outcome = result.isError ? "tool_error" : "ok";
        return result;
      } catch (error) {
        session.logger.error({ err: error, tool: name }, "tool threw");
        return INTERNAL_ERROR_RESULT;
      } finally {
        link.dispose();
        if (extra.signal.aborted) outcome = "cancelled";
        ended?.(outcome);
      }
    });
    answerInvalidParams(server);
    return server;
  };
}

type InstalledHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * The SDK (1.32) checks a request's params against its schema before calling the handler and
 * answers a failed check with -32603 Internal error and zod's raw report. Malformed params are the
 * client's mistake: they get -32602 Invalid params naming each field (test/fuzz pins this).
 */
function answerInvalidParams(server: Server): void {
  const handlers = (server as unknown as { _requestHandlers: Map<string, InstalledHandler> })
    ._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        const { name, issues } = error as { name?: unknown; issues?: unknown };
        // zod names it "ZodError" or "$ZodError", depending on the entry point the SDK used.
        if (!/^\$?ZodError$/.test(String(name)) || !Array.isArray(issues)) throw error;
        const problems = (issues as { path: PropertyKey[]; message: string }[]).map(
          (issue) => `${issue.path.map(String).join(".") || "(request)"}: ${issue.message}`,
        );
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid ${method} request: ${problems.join("; ")}`,
        );
      }
    });
  }
}
