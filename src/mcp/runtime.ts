/**
 * What both MCP entry points (HTTP serve and stdio) need behind the tools: the catalog, the
 * backend client and the tool registry. With no `SVC_BASE_URL` the backend is an embedded sandbox
 * started in-process on a loopback port.
 */

import type { BackendClient, ExchangeReport } from "../backend/index.js";
import { createBackendClient } from "../backend/index.js";
import { loadCatalog } from "../catalog/index.js";
import type { Catalog } from "../catalog/types.js";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import { type RunningSandbox, type SandboxOptions, startSandbox } from "../sandbox/index.js";
import { createToolRegistry, type ToolRegistry } from "../tools/index.js";

export interface RuntimeOptions {
  /** Knobs of the embedded sandbox (used only when `config.baseUrl` is unset). */
  sandbox?: Partial<SandboxOptions>;
  catalogDir?: string;
  /** Called as each backend exchange ends (the HTTP server's metrics). */
  onBackendExchange?: (report: ExchangeReport) => void;
}

export interface Runtime {
  catalog: Catalog;
  backend: BackendClient;
  registry: ToolRegistry;
  baseUrl: string;
  /** Present when the backend is the embedded sandbox. */
  sandbox: RunningSandbox | undefined;
  close(): Promise<void>;
}

export async function openRuntime(
  config: Config,
  logger: Logger,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const catalog = loadCatalog(options.catalogDir);
  const sandbox =
    config.baseUrl === undefined
      ? await startSandbox({
          ...options.sandbox,
          catalog,
          host: "127.0.0.1",
          port: 0,
          logger: logger.child({ component: "sandbox" }),
        })
      : undefined;
  const baseUrl = config.baseUrl ?? (sandbox as RunningSandbox).url;
  const backend = createBackendClient({
    baseUrl,
    ...config.backend,
    logger: logger.child({ component: "backend" }),
    onExchange: options.onBackendExchange,
  });
  const registry = createToolRegistry({ catalog, backend, config });
  return {
    catalog,
    backend,
    registry,
    baseUrl,
    sandbox,
    async close() {
      await backend.close();
      await sandbox?.close();
    },
  };
}
