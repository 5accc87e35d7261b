/**
 * Which tools one connection sees. The same parser serves the HTTP query string
 * (`/mcp?platforms=...&tools=...&readonly=true`) and the stdio bridge's flags, so both accept and
 * refuse exactly the same names. Every refusal names the bad value and the nearest valid names;
 * nothing is silently ignored.
 */
import { nearestNames } from "../catalog/nearest.js";
import type { Catalog } from "../catalog/types.js";
import type { ToolDefinition, ToolRegistry } from "../tools/index.js";

/** More names than this in one selection is refused (there are 51 endpoints on 12 platforms). */
export const MAX_SELECTION_NAMES = 64;
const MAX_NAME_LENGTH = 120;
const NAME_PATTERN = /^[a-z0-9][a-z0-9_/-]*$/;
const NEAREST_COUNT = 3;

export const SELECTION_PARAMETERS = ["platforms", "tools", "readonly"] as const;
export type SelectionParameter = (typeof SELECTION_PARAMETERS)[number];

/** Raw values as they arrived: each entry may itself be a comma-separated list. */
export type RawSelection = Partial<Record<SelectionParameter, readonly string[]>>;

export interface SelectionProblem {
  parameter: string;
  value: string;
  problem: string;
  nearest: string[];
}

export interface ToolSelection {
  /** Tool names in listing order. */
  names: string[];
  /** True when `platforms` or `tools` narrowed the list to typed tools. */
  filtered: boolean;
  readonly: boolean;
  /** Normalized form: equal keys mean equal tool lists. */
  key: string;
}

export type SelectionResult =
  | { ok: true; selection: ToolSelection }
  | { ok: false; problems: SelectionProblem[] };

export interface Selector {
  resolve(raw: RawSelection): SelectionResult;
}

/** One readable sentence per problem, e.g. `platforms "foo": unknown platform (nearest: a, b)`. */
export function describeProblems(problems: readonly SelectionProblem[]): string {
  return problems
    .map((p) => {
      const nearest = p.nearest.length > 0 ? ` (nearest: ${p.nearest.join(", ")})` : "";
      return `${p.parameter} ${JSON.stringify(p.value)}: ${p.problem}${nearest}`;
    })
    .join("; ");
}

function shown(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

/** Splits repeated parameters and comma lists; trims; lowercases; drops duplicates. */
function splitNames(values: readonly string[]): { names: string[]; empty: boolean } {
  const names = new Set<string>();
  let empty = values.length > 0;
  for (const value of values) {
    for (const part of value.split(",")) {
      const name = part.trim().toLowerCase();
      if (name.length > 0) {
        names.add(name);
        empty = false;
      }
    }
  }
  return { names: [...names], empty };
}

function parseReadonly(values: readonly string[] | undefined, problems: SelectionProblem[]) {
  if (values === undefined || values.length === 0) return false;
  const distinct = [...new Set(values.map((v) => v.trim().toLowerCase()))];
  if (distinct.length === 1 && (distinct[0] === "true" || distinct[0] === "false")) {
    return distinct[0] === "true";
  }
  problems.push({
    parameter: "readonly",
    value: shown(values.join(",")),
    problem: "must be true or false (one value)",
    nearest: [],
  });
  return false;
}

export function createSelector(catalog: Catalog, registry: ToolRegistry): Selector {
  const platformNames = catalog.platforms.map((p) => p.platform);
  const typedByPlatform = new Map<string, ToolDefinition[]>();
  for (const tool of registry.typed) {
    if (tool.platform === undefined) continue;
    const list = typedByPlatform.get(tool.platform) ?? [];
    list.push(tool);
    typedByPlatform.set(tool.platform, list);
  }
  const typedOrder = new Map<string, number>();
  for (const [index, tool] of registry.typed.entries()) typedOrder.set(tool.name, index);
  const compactOrder = new Map<string, number>();
  for (const [index, tool] of registry.compact.entries()) compactOrder.set(tool.name, index);
  const allNames = [...registry.compact, ...registry.typed].map((t) => t.name);
  const shortNames = registry.typed.map((t) => t.name.replace(/^svc_/, ""));
  const endpointIds = registry.typed.flatMap((t) => (t.endpointId ? [t.endpointId] : []));
  // Every filtered selection keeps the readers (get_task, get_files) so results can be read.
  const readers = registry.compact.filter((t) => t.kind === "read").map((t) => t.name);

  function platformOf(name: string): string | undefined {
    const normalized = name.replaceAll("_", "-");
    return platformNames.find((p) => p === normalized);
  }

  function toolOf(name: string): ToolDefinition | undefined {
    const underscored = name.replace(/[-/]/g, "_");
    const direct = registry.byName(underscored) ?? registry.byName(`svc_${underscored}`);
    if (direct) return direct;
    const endpoint = catalog.endpoint(name);
    return endpoint ? registry.typed.find((t) => t.endpointId === endpoint.public_id) : undefined;
  }

  function nearestTools(name: string): string[] {
    if (name.includes("/")) return nearestNames(name, endpointIds, NEAREST_COUNT);
    if (name.startsWith("svc_")) return nearestNames(name, allNames, NEAREST_COUNT);
    return nearestNames(name, shortNames, NEAREST_COUNT);
  }

  function checkName(parameter: string, name: string, problems: SelectionProblem[]): boolean {
    if (name.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(name)) {
      problems.push({
        parameter,
        value: shown(name),
        problem: `malformed name: use letters, digits, "_", "-" or "/" (at most ${MAX_NAME_LENGTH})`,
        nearest: [],
      });
      return false;
    }
    return true;
  }

  function resolve(raw: RawSelection): SelectionResult {
    const problems: SelectionProblem[] = [];
    const readonly = parseReadonly(raw.readonly, problems);
    const platforms = splitNames(raw.platforms ?? []);
    const tools = splitNames(raw.tools ?? []);
    for (const [parameter, split] of [
      ["platforms", platforms],
      ["tools", tools],
    ] as const) {
      if (split.empty) {
        problems.push({ parameter, value: "", problem: "empty list", nearest: [] });
      }
    }
    const count = platforms.names.length + tools.names.length;
    if (count > MAX_SELECTION_NAMES) {
      problems.push({
        parameter: "platforms+tools",
        value: `${count} names`,
        problem: `at most ${MAX_SELECTION_NAMES} names in one selection`,
        nearest: [],
      });
      return { ok: false, problems };
    }

    const chosen = new Set<string>();
    for (const name of platforms.names) {
      if (!checkName("platforms", name, problems)) continue;
      const platform = platformOf(name);
      if (platform === undefined) {
        problems.push({
          parameter: "platforms",
          value: name,
          problem: "unknown platform",
          nearest: nearestNames(name, platformNames, NEAREST_COUNT),
        });
        continue;
      }
      for (const tool of typedByPlatform.get(platform) ?? []) {
        if (!readonly || !tool.spendsCredits) chosen.add(tool.name);
      }
    }
    for (const name of tools.names) {
      if (!checkName("tools", name, problems)) continue;
      const tool = toolOf(name);
      if (tool === undefined) {
        problems.push({
          parameter: "tools",
          value: name,
          problem: "unknown tool",
          nearest: nearestTools(name),
        });
      } else if (readonly && tool.spendsCredits) {
        problems.push({
          parameter: "tools",
          value: name,
          problem: "spends credits, so readonly=true excludes it",
          nearest: [],
        });
      } else {
        chosen.add(tool.name);
      }
    }
    if (problems.length > 0) return { ok: false, problems };

    const filtered = platforms.names.length > 0 || tools.names.length > 0;
    const names = filtered
      ? orderFiltered(chosen)
      : registry.compact.filter((t) => !readonly || !t.spendsCredits).map((t) => t.name);
    return {
      ok: true,
      selection: { names, filtered, readonly, key: names.join(",") },
    };
  }

  /** Typed tools in catalog order, then the compact tools named, then the always-kept readers. */
  function orderFiltered(chosen: Set<string>): string[] {
    const rank = (name: string) =>
      typedOrder.get(name) ?? registry.typed.length + (compactOrder.get(name) ?? 0);
    const names = [...chosen].filter((n) => !readers.includes(n));
    names.sort((a, b) => rank(a) - rank(b));
    return [...names, ...readers];
  }

  return { resolve };
}
