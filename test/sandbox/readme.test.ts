import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SANDBOX_KNOBS } from "../../src/sandbox/index.js";

describe("README sandbox section", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("## Sandbox"));

  it.each(SANDBOX_KNOBS.map((knob) => [knob.env, knob] as const))(
    "lists %s with its flag and default",
    (_env, knob) => {
      const flag = knob.flag.split(" ")[0];
      const shown = Array.isArray(knob.default) ? knob.default.join(",") : String(knob.default);
      expect(section).toContain(
        `| \`${flag}\` | \`${knob.env}\` | \`${shown}\` | ${knob.description} |`,
      );
    },
  );
});
