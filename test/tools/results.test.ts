import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonOf, structuredResult } from "../../src/tools/results.js";

describe("jsonOf", () => {
  it("equals JSON.stringify of the data, whichever top-level values come serialized", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.nat()), (data, picks) => {
        const keys = Object.keys(data);
        const serialized = Object.fromEntries(
          picks.flatMap((pick) => {
            const key = keys[pick % Math.max(keys.length, 1)];
            return key === undefined ? [] : [[key, JSON.stringify(data[key])]];
          }),
        );
        expect(jsonOf(data, serialized)).toBe(JSON.stringify(data));
      }),
    );
  });

  it("leaves out undefined values and keeps the order of the keys", () => {
    const data = { a: 1, skipped: undefined, items: [{ x: "é" }], z: null };
    expect(jsonOf(data, { items: JSON.stringify(data.items) })).toBe(JSON.stringify(data));
  });
});

describe("structuredResult", () => {
  it("sends the same JSON as text, built from the serialized values it is given", () => {
    const data = { task_id: "t1", items: [{ id: 1 }, { id: 2 }], has_more: false };
    const result = structuredResult(data, [], { items: JSON.stringify(data.items) });
    expect(result.structuredContent).toBe(data);
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(data) }]);
  });
});
