/**
 * `svc stdio`: the same tools over stdio for local MCP clients, built by the same server factory
 * as HTTP. The key comes from `config.apiKey` (SVC_API_KEY); `--platforms`, `--tools` and
 * `--readonly` select tools exactly as the URL filters do. stdout carries only MCP messages; logs go
 * wherever the given logger writes (stderr).
 */
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type Config, ConfigError } from "../config.js";
import type { Logger } from "../log.js";
import { openRuntime, type RuntimeOptions } from "./runtime.js";
import { createSelector, describeProblems, type SelectionProblem } from "./selection.js";
import { createServerFactory } from "./server.js";
import { createToolSets } from "./tool-sets.js";

export interface StdioSelection {
  platforms?: string | readonly string[];
  tools?: string | readonly string[];
  readonly?: boolean;
}

export interface StdioOptions extends RuntimeOptions {
  stdin?: Readable;
  stdout?: Writable;
}

export interface RunningStdio {
  /** Resolves when the client closes stdin (or `close` ran) and everything has stopped. */
  done: Promise<void>;
  /** Lets in-flight waits answer with their task's current status, then stops. */
  close(): Promise<void>;
}

/** SVC_API_KEY is unset. A ConfigError, so the CLI ends with its usage exit code (2). */
export class MissingApiKeyError extends ConfigError {
  constructor() {
    super(
      "SVC_API_KEY",
      "must be set for the stdio bridge: put the API key in the MCP client's env block for this server",
    );
    this.name = "MissingApiKeyError";
  }
}

/** `--platforms`/`--tools`/`--readonly` name something unknown or malformed (exit code 2). */
export class SelectionError extends ConfigError {
  constructor(readonly problems: SelectionProblem[]) {
    super("tool selection", describeProblems(problems));
    this.name = "SelectionError";
  }
}

function asList(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return typeof value === "string" ? [value] : [...value];
}

export async function runStdio(
  config: Config,
  selection: StdioSelection,
  logger: Logger,
  options: StdioOptions = {},
): Promise<RunningStdio> {
  const apiKey = config.apiKey;
  if (apiKey === undefined) throw new MissingApiKeyError();
  const runtime = await openRuntime(config, logger, {
    ...options,
    // The embedded sandbox accepts the configured key unless its keys were set explicitly.
    sandbox: { keys: [apiKey], ...options.sandbox },
  });
  const resolved = createSelector(runtime.catalog, runtime.registry).resolve({
    platforms: asList(selection.platforms),
    tools: asList(selection.tools),
    readonly: selection.readonly === undefined ? undefined : [String(selection.readonly)],
  });
  if (!resolved.ok) {
    await runtime.close();
    throw new SelectionError(resolved.problems);
  }
  if (runtime.sandbox) {
    logger.info(
      { sandboxUrl: runtime.sandbox.url },
      "SVC_BASE_URL is unset: tools call an embedded sandbox that accepts SVC_API_KEY",
    );
  }

  const shutdown = new AbortController();
  let pending = 0;
  let idle: (() => void) | undefined;
  const server = createServerFactory({ shutdownSignal: shutdown.signal })({
    toolSet: createToolSets(runtime.registry, 1).get(resolved.selection),
    filtered: resolved.selection.filtered,
    apiKey,
    logger,
    observeCall(tool) {
      const started = performance.now();
      pending += 1;
      return (outcome) => {
        pending -= 1;
        if (pending === 0) idle?.();
        logger.info(
          { rpcMethod: "tools/call", tool, outcome, durationMs: performance.now() - started },
          "mcp request",
        );
      };
    },
  });
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  let stopping: Promise<void> | undefined;
  let finished: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });

  async function stop(): Promise<void> {
    stdin.off("end", onEnd);
    shutdown.abort(new Error("stdio bridge stopping"));
    if (pending > 0) {
      // In-flight waits see the shutdown signal and answer with their task's current status.
      await new Promise<void>((resolve) => {
        idle = resolve;
        setTimeout(resolve, config.shutdownGraceMs).unref();
      });
      // The answers are written once their handlers return, a few microtasks after `idle`.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await server.close();
    await runtime.close();
    logger.info("stdio bridge stopped");
    finished();
  }
  function close(): Promise<void> {
    // Deferred, so that a close re-entered from server.close() finds `stopping` already set.
    stopping ??= Promise.resolve().then(stop);
    return stopping;
  }
  const onEnd = () => void close();
  stdin.once("end", onEnd);
  server.onclose = () => void close();
  await server.connect(transport);
  logger.info(
    { tools: resolved.selection.names.length, baseUrl: runtime.baseUrl },
    "stdio bridge ready",
  );
  return { done, close };
}
