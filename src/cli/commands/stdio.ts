/**
 * `svc stdio` (also `svc`/`svc-mcp` with no arguments when stdin is not a terminal): the MCP
 * tools over stdin/stdout for local MCP clients. stdout carries only MCP messages; logs go to
 * stderr. Runs until the client closes stdin, or SIGINT/SIGTERM.
 */
import type { Command } from "commander";
import { loadConfig } from "../../config.js";
import { sandboxOptionsFromEnv } from "../../sandbox/knobs.js";
import { processLogger, untilStopSignal } from "../lifecycle.js";

interface StdioFlags {
  platforms: string[];
  tools: string[];
  readonly?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerStdio(program: Command): void {
  program
    .command("stdio")
    .description("serve the MCP tools over stdio for a local MCP client (key from SVC_API_KEY)")
    .option("--platforms <list>", "typed tools of these platforms (comma separated)", collect, [])
    .option(
      "--tools <list>",
      "typed tools of these endpoints (platform/resource, comma separated)",
      collect,
      [],
    )
    .option("--readonly", "only the tools that spend no credits")
    .addHelpText(
      "after",
      `
The selection works like the remote server's URL filters (?platforms=, ?tools=, ?readonly=).
Environment: SVC_API_KEY (required), SVC_BASE_URL (unset: an embedded sandbox that accepts
SVC_API_KEY), and the variables in the README's table.

MCP client configuration:
  {"command": "npx", "args": ["-y", "svc-mcp"], "env": {"SVC_API_KEY": "<key>"}}`,
    )
    .action(async (flags: StdioFlags) => {
      const config = loadConfig();
      const logger = processLogger(config, 2);
      // Loaded here, not at start-up: the client commands do not need the MCP SDK.
      const { runStdio } = await import("../../mcp/stdio.js");
      const stopped = untilStopSignal();
      const running = await runStdio(
        config,
        {
          ...(flags.platforms.length > 0 && { platforms: flags.platforms }),
          ...(flags.tools.length > 0 && { tools: flags.tools }),
          ...(flags.readonly && { readonly: true }),
        },
        logger,
        { sandbox: sandboxOptionsFromEnv(process.env) },
      );
      await Promise.race([running.done, stopped.then(() => running.close())]);
    });
}
