/**
 * The tools over real HTTP: a sandbox on port 0, a real backend client, and the registry. `call`
 * runs a tool like the MCP layer does and checks every non-error result against the tool's
 * output schema with the draft-07 validator MCP clients use.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { type BackendClient, createBackendClient } from "../../src/backend/index.js";
import { loadCatalog } from "../../src/catalog/index.js";
import { type Config, loadConfig } from "../../src/config.js";
import { createLogger, type Logger } from "../../src/log.js";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
import {
  createToolRegistry,
  type ToolContext,
  type ToolProgress,
  type ToolRegistry,
} from "../../src/tools/index.js";
import { randomKey } from "../helpers/stack.js";

export const catalog = loadCatalog();
const outputValidator = new AjvJsonSchemaValidator();

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (update: ToolProgress) => void;
  key?: string;
}

export interface ToolHarness {
  sandbox: RunningSandbox;
  backend: BackendClient;
  registry: ToolRegistry;
  config: Config;
  key: string;
  logger: Logger;
  /** Every log line of the tools, the backend client and the sandbox. */
  logs: string[];
  call(name: string, args: unknown, options?: CallOptions): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  sandbox?: Partial<SandboxOptions>;
  config?: Partial<Config>;
  /** Point the backend client here instead of at the sandbox (e.g. a closed port). */
  baseUrl?: string;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

/** The structured content of a successful result; fails the test on an error result. */
export function dataOf(result: CallToolResult): Record<string, unknown> {
  if (result.isError) throw new Error(`expected a result, got an error: ${textOf(result)}`);
  if (!result.structuredContent) throw new Error("result has no structuredContent");
  return result.structuredContent;
}

export async function startToolHarness(options: HarnessOptions = {}): Promise<ToolHarness> {
  const key = randomKey("tools");
  const logs: string[] = [];
  const logger = createLogger("debug", { write: (line: string) => void logs.push(line) });
  const sandbox = await startSandbox({
    catalog,
    keys: [key],
    queuedMs: 20,
    runningMs: 80,
    slowMs: 1_500,
    ...options.sandbox,
    logger: logger.child({ component: "sandbox" }),
  });
  const config: Config = { ...loadConfig({}), ...options.config };
  const backend = createBackendClient({
    baseUrl: options.baseUrl ?? sandbox.url,
    ...config.backend,
    logger,
  });
  const registry = createToolRegistry({ catalog, backend, config });

  async function call(name: string, args: unknown, callOptions: CallOptions = {}) {
    const tool = registry.byName(name);
    if (!tool) throw new Error(`no tool ${name}`);
    const { onProgress } = callOptions;
    const ctx: ToolContext = {
      apiKey: callOptions.key ?? key,
      signal: callOptions.signal ?? new AbortController().signal,
      logger,
      ...(onProgress ? { progress: async (update: ToolProgress) => onProgress(update) } : {}),
    };
    const result = await tool.call(args, ctx);
    if (!result.isError) {
      const check = outputValidator.getValidator(tool.outputSchema)(result.structuredContent);
      if (!check.valid) throw new Error(`${name} output breaks its schema: ${check.errorMessage}`);
      const text = result.content[0];
      if (text?.type !== "text" || JSON.parse(text.text) === undefined) {
        throw new Error(`${name} result does not start with its JSON as text`);
      }
      if (text.text !== JSON.stringify(result.structuredContent)) {
        throw new Error(`${name} text differs from its structured content`);
      }
    }
    return result;
  }

  return {
    sandbox,
    backend,
    registry,
    config,
    key,
    logger,
    logs,
    call,
    async close() {
      await backend.close();
      await sandbox.close();
    },
  };
}

/** The registry alone, for tests that only read tool definitions (its backend is never called). */
export function definitionsOnly(): {
  registry: ToolRegistry;
  config: Config;
  close(): Promise<void>;
} {
  const config = loadConfig({});
  const backend = createBackendClient({ baseUrl: "http://127.0.0.1:9", ...config.backend });
  return {
    registry: createToolRegistry({ catalog, backend, config }),
    config,
    close: () => backend.close(),
  };
}
