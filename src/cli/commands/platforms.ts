/** `svc platforms`: the platforms of the local catalog. */
import type { Command } from "commander";
import { loadCatalog } from "../../catalog/index.js";
import { type CommonFlags, withJson } from "../options.js";
import { createOutput, table } from "../output.js";

export function registerPlatforms(program: Command): void {
  withJson(
    program
      .command("platforms")
      .description("list the platforms and their endpoint counts (local catalog; no key needed)"),
  ).action((flags: CommonFlags) => {
    const { platforms } = loadCatalog();
    createOutput(flags.json === true).result(platforms, () =>
      table([
        ["PLATFORM", "ENDPOINTS", "TITLE"],
        ...platforms.map((p) => [p.platform, String(p.endpoint_count), p.title]),
      ]),
    );
  });
}
