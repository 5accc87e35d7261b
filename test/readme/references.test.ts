/**
 * Everything the README names must exist and mean what it says: filter addresses, tool names,
 * endpoint ids, `svc` commands and flags, npm scripts, links, the variable tables (names and
 * defaults) and the CLI's exit codes — all compared with the code, not with a copy of it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/index.js";
import { EXIT } from "../../src/cli/exit-codes.js";
import { createProgram } from "../../src/cli/program.js";
import { loadConfig } from "../../src/config.js";
import { readQuery } from "../../src/http/tool-filter.js";
import { createSelector, describeProblems } from "../../src/mcp/selection.js";
import { createMetrics } from "../../src/metrics/index.js";
import { resolveSandboxOptions, sandboxOptionsFromEnv } from "../../src/sandbox/knobs.js";
import { definitionsOnly } from "../tools/harness.js";
import {
  anchorOf,
  codeSpans,
  fencedBlocks,
  headings,
  prose,
  README,
  shellWords,
  tables,
} from "./markdown.js";
import { configVariables, sandboxVariables } from "./variables.js";

const catalog = loadCatalog();
const definitions = definitionsOnly();
const { registry } = definitions;

afterAll(() => definitions.close());

describe("README filter addresses", () => {
  const selector = createSelector(catalog, registry);
  const queries = [...README.matchAll(/\?((?:platforms|tools|readonly)=[^\s`'"<>)\]|]*)/g)]
    .map((match) => match[1] ?? "")
    // Placeholders (`?platforms=…`, `{platform}`) and bare parameter names are not addresses.
    .filter((query) => !/[…{]/.test(query))
    .filter((query) => [...new URLSearchParams(query).values()].every((value) => value !== ""));

  it("has addresses to check", () => {
    expect(queries.length).toBeGreaterThan(5);
  });

  it.each([...new Set(queries)])("?%s is accepted, or shown with its exact refusal", (query) => {
    const read = readQuery(`/mcp?${query}`);
    const result = selector.resolve(read.raw);
    const problems = [...read.problems, ...(result.ok ? [] : result.problems)];
    if (problems.length > 0) expect(README).toContain(describeProblems(problems));
  });
});

describe("README names", () => {
  it("names only tools (and svc_mcp_ metrics) that exist", () => {
    const known = new Set([...registry.compact, ...registry.typed].map((tool) => tool.name));
    const metrics = createMetrics();
    for (const metric of metrics.registry.getMetricsAsArray()) known.add(metric.name);
    metrics.close();
    const named = new Set([...README.matchAll(/\bsvc_[a-z0-9_]+/g)].map((match) => match[0]));
    expect(named.size).toBeGreaterThan(7);
    expect([...named].filter((name) => !known.has(name))).toEqual([]);
  });

  it("names only endpoints that exist", () => {
    const platforms = catalog.platforms
      .map((p) => p.platform)
      .sort((a, b) => b.length - a.length)
      .join("|");
    const ids = [...README.matchAll(new RegExp(`(?<![a-z.-])(?:${platforms})/[a-z][a-z-]*`, "g"))]
      .map((match) => match[0])
      .filter((id) => !id.endsWith("-"));
    expect(ids.length).toBeGreaterThan(10);
    expect([...new Set(ids)].filter((id) => catalog.endpoint(id) === undefined)).toEqual([]);
  });

  it("uses only svc commands and flags that exist", () => {
    const program = createProgram();
    const lines = fencedBlocks()
      .filter((block) => block.lang === "sh")
      .flatMap((block) => block.body.replace(/\\\n/g, " ").split("\n"));
    const uses: string[] = [];
    for (const line of lines) {
      const words = shellWords(line);
      words.forEach((word, index) => {
        // `svc` where the shell runs it: first in the line, after an operator, or in `$(…)`.
        const atCommand = index === 0 || /^(\||\|\||&&|;)$/.test(words[index - 1] ?? "");
        if (!((word === "svc" && atCommand) || word.endsWith("(svc"))) return;
        const name = words[index + 1] ?? "";
        const command = program.commands.find((c) => c.name() === name);
        expect(command, `svc ${name}`).toBeDefined();
        const flags = new Set(["--help", ...(command?.options.map((o) => o.long) ?? [])]);
        const end = words.findIndex((w, at) => at > index && /^(\||\|\||&&|;|>)$/.test(w));
        for (const flag of words.slice(index + 2, end === -1 ? undefined : end)) {
          if (flag.startsWith("--")) expect(flags, `svc ${name} ${flag}`).toContain(flag);
        }
        uses.push(name);
      });
    }
    expect(new Set(uses).size).toBeGreaterThanOrEqual(8);
  });

  it("runs only npm scripts that exist", () => {
    const { scripts } = JSON.parse(readFileSync(join(process.cwd(), "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const named = [
      ...[...README.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1] ?? ""),
      ...[...README.matchAll(/npm (start|test)\b/g)].map((match) => match[1] ?? ""),
    ];
    expect(named).toContain("start");
    expect(named).toContain("test");
    expect(named.filter((name) => scripts[name] === undefined)).toEqual([]);
  });

  it("links only to headings that exist", () => {
    const anchors = new Set(headings().map(anchorOf));
    const links = [...prose().matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1] ?? "");
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((link) => !anchors.has(link))).toEqual([]);
  });
});

describe("README tables", () => {
  const variableRows = tables()
    .filter((table) => table.header.includes("variable"))
    .flatMap((table) =>
      table.rows.map((row) => ({
        name: /^`([A-Z][A-Z0-9_]*)`$/.exec(row[table.header.indexOf("variable")] ?? "")?.[1],
        defaultCell: row[table.header.indexOf("default")] ?? "",
      })),
    )
    .filter((row): row is { name: string; defaultCell: string } => row.name !== undefined);

  it("list exactly the environment variables the code reads", () => {
    const documented = variableRows.map((row) => row.name).sort();
    expect(documented).toEqual([...configVariables(), ...sandboxVariables()].sort());
  });

  it("give each variable's real default: setting it to that value changes nothing", () => {
    const sandboxNames = new Set(sandboxVariables());
    for (const { name, defaultCell } of variableRows) {
      const [value] = codeSpans(defaultCell);
      if (value === undefined) {
        expect(defaultCell, name).toMatch(/^(unset|none)/);
        continue;
      }
      if (sandboxNames.has(name)) {
        const defaults = resolveSandboxOptions({});
        expect(resolveSandboxOptions(sandboxOptionsFromEnv({ [name]: value })), name).toEqual(
          defaults,
        );
      } else {
        expect(loadConfig({ [name]: value }), name).toEqual(loadConfig({}));
      }
    }
  });

  it("list the CLI's exit codes", () => {
    const table = tables().find((t) => t.header[0] === "exit code");
    const codes = table?.rows.map((row) => Number(row[0])) ?? [];
    expect(codes.sort((a, b) => a - b)).toEqual(Object.values(EXIT).sort((a, b) => a - b));
  });
});
