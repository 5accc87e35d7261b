/**
 * The fuzzers' generators agree with an independent JSON Schema validator (a fresh ajv): what
 * `validValue` makes is valid, what `invalidValue` makes is invalid exactly at the pointer it
 * names. And the schema each typed tool lists accepts every input its catalog schema accepts,
 * so a client that validates arguments before sending never blocks a correct call.
 */
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../src/catalog/index.js";
import type { JsonSchema } from "../../src/catalog/types.js";
import { portableInputSchema } from "../../src/tools/portable-schema.js";
import { escapePointer, validValue } from "./schema-arbitraries.js";
import { invalidValue } from "./schema-mutations.js";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const catalog = loadCatalog();
const SAMPLES = 40;

/** The pointer an error is about: a missing or unknown field is named below its object. */
function pointerOf(error: ErrorObject): string {
  const params = error.params as Record<string, string>;
  if (error.keyword === "required")
    return `${error.instancePath}/${escapePointer(params.missingProperty ?? "")}`;
  if (error.keyword === "additionalProperties") {
    return `${error.instancePath}/${escapePointer(params.additionalProperty ?? "")}`;
  }
  return error.instancePath;
}

function agrees(name: string, schema: JsonSchema): void {
  const validate = ajv.compile(schema);
  for (const value of fc.sample(validValue(schema), { numRuns: SAMPLES, seed: 7 })) {
    expect(
      validate(value),
      `${name}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`,
    ).toBe(true);
  }
  for (const { value, pointer } of fc.sample(invalidValue(schema), { numRuns: SAMPLES, seed: 7 })) {
    if (pointer === "/__proto__") continue; // JSON.parse keeps it as a field; ajv sees the object as is
    expect(validate(value), `${name}: ${JSON.stringify(value)} should break ${pointer}`).toBe(
      false,
    );
    expect((validate.errors ?? []).map(pointerOf), `${name}: ${JSON.stringify(value)}`).toContain(
      pointer,
    );
  }
}

describe("schema arbitraries", () => {
  it("agree with ajv on every endpoint's catalog input schema", () => {
    for (const endpoint of catalog.endpoints) agrees(endpoint.public_id, endpoint.input_schema);
  });

  it("agree with ajv on schemas of every shape the tools list", () => {
    agrees("bounded string", { type: "string", minLength: 1, maxLength: 5 });
    agrees("pattern list", {
      type: "array",
      maxItems: 3,
      items: { type: "string", pattern: "^[a-z]+(\\.[a-z]+)*$" },
    });
    agrees("numbers", {
      type: "object",
      properties: {
        wait: { type: "number", minimum: 0, maximum: 50 },
        limit: { type: "integer", minimum: 1, maximum: 100 },
      },
      required: ["limit"],
      additionalProperties: false,
    });
  });

  it("show that each typed tool's listed schema accepts every input its catalog schema accepts", () => {
    for (const endpoint of catalog.endpoints) {
      const listed = ajv.compile(portableInputSchema(endpoint.input_schema).schema);
      for (const value of fc.sample(validValue(endpoint.input_schema), {
        numRuns: SAMPLES,
        seed: 11,
      })) {
        expect(listed(value), `${endpoint.tool_name}: ${ajv.errorsText(listed.errors)}`).toBe(true);
      }
    }
  });

  it("refuse a keyword they do not know, instead of fuzzing it wrongly", () => {
    expect(() => validValue({ type: "string", const: "x" })).toThrow(/const/);
  });
});
