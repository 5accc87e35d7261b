/**
 * Reads the tool selection from the /mcp query string (`platforms`, `tools`, `readonly`) and
 * attaches the cached tool set. Unknown parameters and bad names are refused with 400, naming each
 * bad value and the nearest valid names.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { nearestNames } from "../catalog/nearest.js";
import {
  describeProblems,
  type RawSelection,
  SELECTION_PARAMETERS,
  type SelectionParameter,
  type SelectionProblem,
  type Selector,
} from "../mcp/selection.js";
import type { ToolSet, ToolSets } from "../mcp/tool-sets.js";
import { queryParams } from "./guards.js";
import { JSONRPC_INVALID_PARAMS, sendRefusal } from "./jsonrpc-error.js";

export interface SelectedTools {
  toolSet: ToolSet;
  filtered: boolean;
}

export function selectedToolsOf(res: Response): SelectedTools {
  return res.locals.selected as SelectedTools;
}

function isSelectionParameter(name: string): name is SelectionParameter {
  return (SELECTION_PARAMETERS as readonly string[]).includes(name);
}

export function readQuery(originalUrl: string): {
  raw: RawSelection;
  problems: SelectionProblem[];
} {
  const params = queryParams(originalUrl);
  const raw: Partial<Record<SelectionParameter, string[]>> = {};
  const problems: SelectionProblem[] = [];
  for (const [name, value] of params) {
    const normalized = name.trim().toLowerCase();
    if (isSelectionParameter(normalized)) {
      const values = raw[normalized] ?? [];
      values.push(value);
      raw[normalized] = values;
    } else if (!problems.some((p) => p.value === name)) {
      problems.push({
        parameter: "query",
        value: name.slice(0, 40),
        problem: `unknown parameter; accepted: ${SELECTION_PARAMETERS.join(", ")}`,
        nearest: nearestNames(normalized, [...SELECTION_PARAMETERS], 1),
      });
    }
  }
  return { raw, problems };
}

export function toolFilter(selector: Selector, toolSets: ToolSets): RequestHandler {
  // Most requests carry no query string: that selection is resolved once.
  const noQuery = { raw: Object.freeze({}), problems: [] };
  const unfiltered = selector.resolve(noQuery.raw);
  return (req: Request, res: Response, next: NextFunction) => {
    const plain = !req.originalUrl.includes("?");
    const query = plain ? noQuery : readQuery(req.originalUrl);
    const result = plain ? unfiltered : selector.resolve(query.raw);
    const problems = [...query.problems, ...(result.ok ? [] : result.problems)];
    if (problems.length > 0 || !result.ok) {
      sendRefusal(res, {
        status: 400,
        code: JSONRPC_INVALID_PARAMS,
        message: `Invalid tool selection in the address: ${describeProblems(problems)}`,
        data: { problems, accepted_parameters: SELECTION_PARAMETERS },
        reason: "bad_filter",
      });
      return;
    }
    res.locals.filter = query.raw;
    const selected: SelectedTools = {
      toolSet: toolSets.get(result.selection),
      filtered: result.selection.filtered,
    };
    res.locals.selected = selected;
    next();
  };
}
