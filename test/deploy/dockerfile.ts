/**
 * Reads the Dockerfile into build arguments and stages, so tests can check the image's settings
 * and replay its runtime stage with the very commands the file holds.
 */
import { readFileSync } from "node:fs";

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** `ARG name=default` lines before the first FROM. */
  args: Record<string, string>;
  stages: Stage[];
}

/** Joins continued lines, drops comments and blank lines, splits each into keyword and args. */
function instructionsOf(text: string): Instruction[] {
  const logical: string[] = [];
  let pending = "";
  for (const line of text.split("\n")) {
    if (/^\s*#/.test(line) && pending === "") continue;
    const continued = line.endsWith("\\");
    pending += `${continued ? line.slice(0, -1) : line} `;
    if (!continued) {
      if (pending.trim() !== "") logical.push(pending.trim());
      pending = "";
    }
  }
  return logical.map((line) => {
    const [keyword = "", ...rest] = line.split(/\s+/);
    return { keyword: keyword.toUpperCase(), args: rest.join(" ") };
  });
}

export function readDockerfile(path: string): Dockerfile {
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of instructionsOf(readFileSync(path, "utf8"))) {
    const current = stages.at(-1);
    if (instruction.keyword === "FROM") {
      const [base = "", , name = ""] = instruction.args.split(/\s+/);
      stages.push({ name, base, instructions: [] });
    } else if (current) {
      current.instructions.push(instruction);
    } else if (instruction.keyword === "ARG") {
      const [name = "", value = ""] = instruction.args.split("=");
      args[name] = value;
    }
  }
  return { args, stages };
}

export function argsOf(stage: Stage, keyword: string): string[] {
  return stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
}

/** `ENV A=1 B=2` lines of a stage as one object (unquoted values, as this Dockerfile writes them). */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of argsOf(stage, "ENV")) {
    for (const pair of line.split(/\s+/)) {
      const [name = "", value = ""] = pair.split("=");
      env[name] = value;
    }
  }
  return env;
}

/** The exec-form (JSON array) command after `CMD` in a CMD or HEALTHCHECK line. */
export function execForm(args: string): string[] {
  const json = args.slice(args.indexOf("["));
  const command = JSON.parse(json) as unknown;
  if (!Array.isArray(command) || !command.every((part) => typeof part === "string")) {
    throw new Error(`not an exec-form command: ${args}`);
  }
  return command;
}
