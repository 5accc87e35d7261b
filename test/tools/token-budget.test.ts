/**
 * Every connection pays for its tool listing in context tokens. These budgets hold the listing as
 * tools/list shows it (bench/tokens.mjs measures the live /mcp answer and prints every variant).
 */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../src/tools/index.js";
import { definitionsOnly } from "./harness.js";

const definitions = definitionsOnly();
const { registry } = definitions;
afterAll(() => definitions.close());

function listingTokens(tools: readonly ToolDefinition[]): number {
  const listed = tools.map(
    ({ name, title, description, inputSchema, outputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      outputSchema,
      annotations,
    }),
  );
  return encode(JSON.stringify({ tools: listed })).length;
}

describe("tools/list token budgets (o200k)", () => {
  it("keeps the seven compact tools within 2,000 tokens", () => {
    expect(listingTokens(registry.compact)).toBeLessThanOrEqual(2_000);
  });

  it("keeps the 51 typed tools within 18,000 tokens, 350 per tool on average", () => {
    const total = listingTokens(registry.typed);
    expect(total).toBeLessThanOrEqual(18_000);
    expect(total / registry.typed.length).toBeLessThanOrEqual(350);
  });
});
