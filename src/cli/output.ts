/**
 * The shared output helper: human-readable text by default, JSON with `--json`. Results go to
 * stdout; notes, progress and errors go to stderr, so `--json` output stays parseable.
 */
import { BackendError } from "../backend/index.js";
import { CliError } from "./exit-codes.js";

export interface Streams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface Output {
  readonly json: boolean;
  readonly streams: Streams;
  /** Prints `value` as JSON with --json, else the text `human` returns. */
  result(value: unknown, human: () => string): void;
  /** One raw line on stdout (JSONL). */
  line(text: string): void;
  /** A note for the person at the terminal, on stderr; left out with --json. */
  note(text: string): void;
  error(error: unknown): void;
}

const DEFAULT_STREAMS: Streams = { stdout: process.stdout, stderr: process.stderr };

function errorJson(error: unknown): Record<string, unknown> {
  if (error instanceof BackendError) return error.toJSON() as unknown as Record<string, unknown>;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof CliError ? "cli_error" : (error as Error)?.name || "error";
  const details = error instanceof CliError && error.details.length > 0 ? error.details : undefined;
  return { code, message, ...(details && { details }) };
}

function errorLines(error: unknown): string[] {
  if (error instanceof BackendError) {
    const facts = [
      error.code,
      error.status && `HTTP ${error.status}`,
      error.requestId && `request ${error.requestId}`,
    ];
    const lines = [`${error.message} (${facts.filter(Boolean).join(", ")})`];
    for (const detail of error.details ?? []) {
      const { path, message } = (detail ?? {}) as { path?: unknown; message?: unknown };
      lines.push(`  - ${path === undefined ? JSON.stringify(detail) : `${path}: ${message}`}`);
    }
    return lines;
  }
  const message = error instanceof Error ? error.message : String(error);
  return [message, ...(error instanceof CliError ? error.details.map((d) => `  - ${d}`) : [])];
}

export function createOutput(json: boolean, streams: Streams = DEFAULT_STREAMS): Output {
  return {
    json,
    streams,
    result(value, human) {
      const text = json ? JSON.stringify(value, null, 2) : human();
      if (text !== "") streams.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    },
    line(text) {
      streams.stdout.write(`${text}\n`);
    },
    note(text) {
      if (!json) streams.stderr.write(`${text}\n`);
    },
    error(error) {
      if (json) streams.stderr.write(`${JSON.stringify({ error: errorJson(error) })}\n`);
      else streams.stderr.write(`svc: ${errorLines(error).join("\n")}\n`);
    },
  };
}

/** Left-aligned columns separated by two spaces; the last column is not padded. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
        .join("  "),
    )
    .join("\n");
}

/** `text` cut to `max` characters on one line. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
