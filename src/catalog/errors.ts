import type { Violation } from "./types.js";

const SHOWN = 5;

/** A catalog file that cannot be used; the message names the file and the JSON path. */
export class CatalogError extends Error {
  readonly file: string;
  readonly path: string;
  readonly violations: readonly Violation[];

  constructor(file: string, violations: readonly Violation[]) {
    const first = violations[0] ?? { path: "(root)", message: "is not valid" };
    const shown = violations.slice(0, SHOWN).map((v) => `at ${v.path}: ${v.message}`);
    const more = violations.length > SHOWN ? `; and ${violations.length - SHOWN} more` : "";
    super(
      `catalog file ${file} ${shown.join("; ") || `at ${first.path}: ${first.message}`}${more}`,
    );
    this.name = "CatalogError";
    this.file = file;
    this.path = first.path;
    this.violations = violations;
  }
}

/** A name that matches no endpoint; `suggestions` are the nearest endpoint ids. */
export class UnknownEndpointError extends Error {
  constructor(
    readonly requested: string,
    readonly suggestions: readonly string[],
  ) {
    const hint = suggestions.length > 0 ? `; nearest: ${suggestions.join(", ")}` : "";
    super(`unknown endpoint "${requested}"${hint}`);
    this.name = "UnknownEndpointError";
  }
}
