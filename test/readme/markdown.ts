/** The pieces of README.md the README tests read: fenced blocks, tables, code spans, headings. */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const README = readFileSync(join(process.cwd(), "README.md"), "utf8");

export interface FencedBlock {
  /** First word of the info string (`sh`, `json`, …). */
  lang: string;
  /** `key=value` words after it, e.g. `readme-test=server`. */
  attributes: Record<string, string>;
  body: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

export function fencedBlocks(markdown: string = README): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(.*)$/.exec(lines[index] ?? "");
    if (!open) continue;
    const [lang = "", ...words] = (open[1] ?? "").trim().split(/\s+/);
    const attributes = Object.fromEntries(
      words.map((word) => [word.split("=")[0] ?? word, word.split("=")[1] ?? ""]),
    );
    const end = lines.findIndex((line, at) => at > index && line.startsWith("```"));
    const stop = end === -1 ? lines.length : end;
    blocks.push({
      lang,
      attributes,
      body: lines.slice(index + 1, stop).join("\n"),
      line: index + 1,
    });
    index = stop;
  }
  return blocks;
}

/** Prose and code outside fenced blocks. */
export function prose(markdown: string = README): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
}

export interface Table {
  header: string[];
  rows: string[][];
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());
}

/** Every table outside fenced blocks, its separator row dropped. */
export function tables(markdown: string = README): Table[] {
  const found: Table[] = [];
  let current: string[] = [];
  for (const line of [...prose(markdown).split("\n"), ""]) {
    if (line.trim().startsWith("|")) {
      current.push(line);
      continue;
    }
    if (current.length >= 2) {
      const [header = "", , ...rows] = current;
      found.push({ header: cells(header), rows: rows.map(cells) });
    }
    current = [];
  }
  return found;
}

export function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");
}

/** GitHub's anchor for a heading. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");
}

export function headings(markdown: string = README): string[] {
  return [...prose(markdown).matchAll(/^#{1,6} (.+)$/gm)].map((match) => match[1] ?? "");
}

/**
 * Splits a shell line into words the way the shell would for these examples: quotes group and are
 * removed, `#` after a space starts a comment.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | undefined;
  let started = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index] as string;
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started) words.push(word);
      word = "";
      started = false;
    } else if (char === "#" && !started) {
      break;
    } else {
      word += char;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
}
