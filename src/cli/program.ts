/** The `svc` command tree: one small module per command, registered here. */
import { createRequire } from "node:module";
import { Command } from "commander";
import { registerAccount } from "./commands/account.js";
import { registerDescribe } from "./commands/describe.js";
import { registerEndpoints } from "./commands/endpoints.js";
import { registerFiles } from "./commands/files.js";
import { registerPlatforms } from "./commands/platforms.js";
import { registerRun } from "./commands/run.js";
import { registerSandbox } from "./commands/sandbox.js";
import { registerServe } from "./commands/serve.js";
import { registerStdio } from "./commands/stdio.js";
import { registerTask } from "./commands/task.js";
import { EXIT_CODES_HELP } from "./exit-codes.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

const OVERVIEW = `
Typical use:
  svc sandbox                                   # a local backend; prints SVC_BASE_URL and a key
  export SVC_BASE_URL=http://127.0.0.1:3000 SVC_API_KEY=sandbox-key
  svc endpoints --query comments                # find an endpoint (local catalog)
  svc describe social-network/comments          # its input fields and price
  svc run social-network/comments --input '{"urls":["https://example.com/p/1"]}' --wait 30
  svc task <task-id> --all > records.jsonl      # every record, one JSON object a line

With no arguments and stdin not a terminal, svc starts the stdio MCP bridge (how MCP clients
launch \`npx svc-mcp\`).`;

export function createProgram(): Command {
  const program = new Command("svc")
    .description(
      "MCP server, stdio bridge and command-line client of the social-data collection service",
    )
    .version(version)
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .addHelpText("after", `${OVERVIEW}\n\n${EXIT_CODES_HELP}`);
  registerServe(program);
  registerStdio(program);
  registerSandbox(program);
  registerPlatforms(program);
  registerEndpoints(program);
  registerDescribe(program);
  registerRun(program);
  registerTask(program);
  registerFiles(program);
  registerAccount(program);
  return program;
}
