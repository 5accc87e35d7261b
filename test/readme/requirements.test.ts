/**
 * test/REQUIREMENTS.md ties every rule of the interface and every design decision to the tests that
 * prove it. This keeps the list true: each file it names exists and holds each title quoted after
 * it, and each row without a proof is a gap listed at the end.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tables } from "./markdown.js";

const TEST_DIR = join(process.cwd(), "test");
const LIST = readFileSync(join(TEST_DIR, "REQUIREMENTS.md"), "utf8");
const HEADER = ["ID", "Requirement", "Proved by"];

interface Proof {
  file: string;
  titles: string[];
}

interface Requirement {
  id: string;
  proofs: Proof[];
  gap: string | undefined;
  cell: string;
}

/** `file` then "title", "title", …; any other text in the cell (`›`, `;`) is layout only. */
function proofsOf(cell: string): Proof[] {
  const proofs: Proof[] = [];
  for (const [, file, title] of cell.matchAll(/`([\w./-]+\.test\.ts)`|"([^"]+)"/g)) {
    if (file !== undefined) proofs.push({ file, titles: [] });
    else proofs.at(-1)?.titles.push(title ?? "");
  }
  return proofs;
}

const requirements: Requirement[] = tables(LIST)
  .filter((table) => table.header.join("|") === HEADER.join("|"))
  .flatMap((table) =>
    table.rows.map(([id = "", , cell = ""]) => ({
      id,
      proofs: proofsOf(cell),
      gap: /^Gap (G\d+)$/.exec(cell)?.[1],
      cell,
    })),
  );

const gapsSection = LIST.slice(LIST.indexOf("\n## Gaps"));
const listedGaps = [...gapsSection.matchAll(/\*\*(G\d+)\*\*/g)].map((match) => match[1]);

/** A title counts only as a whole string literal of the file, as `it`, `describe` or a case label. */
function holdsLiteral(source: string, title: string): boolean {
  return ['"', "'", "`"].some((quote) => source.includes(`${quote}${title}${quote}`));
}

describe("test/REQUIREMENTS.md", () => {
  it("has requirement tables with unique ids", () => {
    expect(requirements.length).toBeGreaterThan(0);
    const ids = requirements.map((requirement) => requirement.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[A-Z]+\d+$/);
  });

  it.each(requirements)("$id names test files that exist and titles that stand in them", (row) => {
    if (row.gap !== undefined) {
      expect(listedGaps, `${row.id}: ${row.gap} is not listed under Gaps`).toContain(row.gap);
      return;
    }
    expect(row.proofs.length, `${row.id} has no proof: ${row.cell}`).toBeGreaterThan(0);
    expect(row.cell, `${row.id}: a quoted title before any file`).toMatch(/^`/);
    for (const { file, titles } of row.proofs) {
      const path = join(TEST_DIR, file);
      expect(existsSync(path), `${row.id}: no file test/${file}`).toBe(true);
      expect(titles.length, `${row.id}: test/${file} without a title`).toBeGreaterThan(0);
      const source = readFileSync(path, "utf8");
      for (const title of titles) {
        expect(holdsLiteral(source, title), `${row.id}: "${title}" is not in test/${file}`).toBe(
          true,
        );
      }
    }
  });

  it("lists under Gaps exactly the gaps the rows point to", () => {
    const pointed = requirements.flatMap((requirement) => requirement.gap ?? []);
    expect([...listedGaps].sort()).toEqual([...new Set(pointed)].sort());
  });
});
