/** `svc endpoints`: find endpoints in the local catalog, with the same search as the MCP tool. */
import type { Command } from "commander";
import { loadCatalog, nearestNames } from "../../catalog/index.js";
import { searchEndpoints } from "../../tools/search.js";
import { summaryOf } from "../../tools/search-endpoints.js";
import { CliError, EXIT } from "../exit-codes.js";
import { type CommonFlags, withJson } from "../options.js";
import { createOutput, table } from "../output.js";

interface EndpointsFlags extends CommonFlags {
  platform?: string;
  query?: string;
  tag?: string;
}

export function registerEndpoints(program: Command): void {
  withJson(
    program
      .command("endpoints")
      .description("find endpoints by platform, words or tag (local catalog; no key needed)")
      .option("--platform <platform>", "only this platform (see `svc platforms`)")
      .option("--query <words>", "rank by these words (matched against id, title, tags, text)")
      .option("--tag <tag>", "only endpoints with this tag"),
  ).action((flags: EndpointsFlags) => {
    const catalog = loadCatalog();
    const names = catalog.platforms.map((p) => p.platform);
    const platform = flags.platform?.trim().toLowerCase().replaceAll("_", "-");
    if (platform !== undefined && !names.includes(platform)) {
      const nearest = nearestNames(platform, names);
      const hint = nearest.length > 0 ? `; nearest: ${nearest.join(", ")}` : "";
      throw new CliError(`unknown platform "${flags.platform}"${hint}`, EXIT.usage);
    }
    const found = searchEndpoints(catalog.endpoints, {
      ...(platform !== undefined && { platform }),
      ...(flags.query !== undefined && { query: flags.query }),
      ...(flags.tag !== undefined && { tag: flags.tag }),
    });
    const out = createOutput(flags.json === true);
    const entries = found.map((endpoint) => ({
      id: endpoint.public_id,
      tool: endpoint.tool_name,
      title: endpoint.title,
      summary: summaryOf(endpoint.description),
      tags: endpoint.tags,
      credits_per_result: endpoint.billing.credits_per_result,
    }));
    out.result(entries, () =>
      entries.length === 0
        ? "No endpoint matches."
        : table([
            ["ENDPOINT", "CREDITS/RESULT", "TITLE"],
            ...entries.map((e) => [e.id, String(e.credits_per_result), e.title]),
          ]),
    );
    if (entries.length > 0) out.note("\nDetails and input fields: svc describe <endpoint>");
  });
}
