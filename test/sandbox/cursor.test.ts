import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createCursorCodec } from "../../src/sandbox/cursor.js";

describe("page cursors", () => {
  const codec = createCursorCodec(randomBytes(32));

  it("decodes what it encoded, for the same task", () => {
    for (const offset of [0, 1, 100, 1999]) {
      expect(codec.decode("tsk_a", codec.encode("tsk_a", offset))).toBe(offset);
    }
  });

  it("refuses a cursor of another task", () => {
    expect(codec.decode("tsk_b", codec.encode("tsk_a", 100))).toBeUndefined();
  });

  it("refuses a cursor signed by another sandbox", () => {
    const other = createCursorCodec(randomBytes(32));
    expect(codec.decode("tsk_a", other.encode("tsk_a", 100))).toBeUndefined();
  });

  it("refuses an edited offset that keeps the old signature", () => {
    const [, signature] = codec.encode("tsk_a", 100).split(".");
    const forged = `${Buffer.from("tsk_a:0").toString("base64url")}.${signature}`;
    expect(codec.decode("tsk_a", forged)).toBeUndefined();
  });

  it.each(["", ".", "abc", "a.b.c", "tsk_a:100", "%%%.%%%"])("refuses garbage %j", (cursor) => {
    expect(codec.decode("tsk_a", cursor)).toBeUndefined();
  });
});
