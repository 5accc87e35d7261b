/** `svc account`: the key's fingerprint, credits and limits. */
import type { Command } from "commander";
import { withBackend } from "../backend.js";
import { BACKEND_ENV_HELP, type CommonFlags, withBackendFlags } from "../options.js";
import { createOutput, table } from "../output.js";

export function registerAccount(program: Command): void {
  withBackendFlags(
    program.command("account").description("show the key's fingerprint, credits and limits"),
  )
    .addHelpText("after", BACKEND_ENV_HELP)
    .action(async (flags: CommonFlags) => {
      const account = await withBackend(flags, ({ client, key }) => client.getAccount(key));
      createOutput(flags.json === true).result(account, () =>
        [
          `Key: ${account.key_id}`,
          `Credits: ${account.credits.balance} left, ${account.credits.used} used`,
          "Limits:",
          table(
            Object.entries(account.limits).map(([name, value]) => [`  ${name}`, String(value)]),
          ),
        ].join("\n"),
      );
    });
}
