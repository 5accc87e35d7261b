/** `svc serve` (and `npm start`): the remote MCP server over HTTP, until SIGINT/SIGTERM. */
import type { Command } from "commander";
import { sandboxOptionsFromEnv } from "../../sandbox/knobs.js";
import { type ListenFlags, listenConfig, processLogger, untilStopSignal } from "../lifecycle.js";
import { withListenFlags } from "../options.js";

export function registerServe(program: Command): void {
  withListenFlags(
    program
      .command("serve")
      .description(
        "run the MCP server (Streamable HTTP at /mcp); no SVC_BASE_URL: embedded sandbox",
      ),
  )
    .addHelpText(
      "after",
      "\nConfiguration comes from the environment (see the README's table); with SVC_BASE_URL " +
        "unset, the\nembedded sandbox reads the SVC_SANDBOX_* variables listed by `svc sandbox --help`.",
    )
    .action(async (flags: ListenFlags) => {
      const config = listenConfig(flags);
      const logger = processLogger(config, 1);
      // Loaded here, not at start-up: the client commands need neither Express nor the MCP SDK.
      const { startServer } = await import("../../http/start.js");
      // Listening before start-up, so that a stop signal is never missed.
      const stopped = untilStopSignal();
      const server = await startServer(config, logger, {
        sandbox: sandboxOptionsFromEnv(process.env),
      });
      if (process.stderr.isTTY) process.stderr.write(`MCP server at ${server.mcpUrl}\n`);
      await stopped;
      await server.close();
    });
}
