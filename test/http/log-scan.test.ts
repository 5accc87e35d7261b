/** The global teardown's scan finds a key in any captured log line, and names no key itself. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { findLeakedKeys } from "../helpers/log-scan.js";

it("names the file and line of every log line holding a key", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-log-scan-"));
  writeFileSync(join(dir, "a.keys"), "test-key-one\ntest-key-two\n");
  writeFileSync(join(dir, "a.log"), '{"msg":"fine"}\n{"msg":"Bearer test-key-two"}\n');
  writeFileSync(join(dir, "b.log"), '{"msg":"test-key-one leaked"}\n');
  writeFileSync(join(dir, "c.log"), '{"msg":"nothing here"}\n');
  expect(findLeakedKeys(dir).sort()).toEqual(["a.log:2", "b.log:1"]);
});
