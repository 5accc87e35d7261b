/**
 * fast-check arbitraries of values a JSON Schema accepts, for the subset the tools and the catalog
 * use (schema-mutations.ts makes the values it rejects). A keyword outside the subset throws, so
 * a schema that outgrows this file is noticed instead of being fuzzed wrongly.
 */
import fc from "fast-check";
import type { JsonSchema } from "../../src/catalog/types.js";

/** Overrides by property name, for fields whose meaning matters (ids, loopback-only URLs). */
export type Hints = Readonly<Record<string, fc.Arbitrary<unknown>>>;

const KNOWN_KEYWORDS = new Set([
  "$schema",
  "type",
  "properties",
  "required",
  "additionalProperties",
  "anyOf",
  "description",
  "default",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "enum",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "items",
  "minItems",
  "maxItems",
]);
const SHOWN_STRING_LENGTH = 40;
const SHOWN_ARRAY_LENGTH = 4;
/** Strings the sandbox treats as test inputs (a failed task, an empty result, a slow task). */
const SANDBOX_INPUTS = ["sandbox:fail", "sandbox:empty", "sandbox:slow"];

export type Json = Record<string, unknown>;

export function check(schema: JsonSchema): Json {
  for (const key of Object.keys(schema)) {
    if (!KNOWN_KEYWORDS.has(key)) throw new Error(`schema keyword "${key}" is not fuzzed yet`);
  }
  return schema as Json;
}

/** Code points, as JSON Schema counts string length. */
function lengthOf(text: string): number {
  return [...text].length;
}

export function escapePointer(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

export function anyString(min: number, max: number): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.string({ minLength: min, maxLength: max, unit: "grapheme" }),
      fc.string({ minLength: min, maxLength: max, unit: "binary" }),
      fc.string({ minLength: min, maxLength: max, unit: codeUnit }),
    )
    .filter((text) => lengthOf(text) >= min && lengthOf(text) <= max);
}

const uriValue = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    "urn:isbn:0451450523",
    "mailto:someone@example.com",
    "https://xn--r8jz45g.example/%E3%83%91?q=%20",
  ),
);

function stringValue(schema: Json): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.format === "uri") return uriValue;
  if (schema.format !== undefined) throw new Error(`format "${schema.format}" is not fuzzed yet`);
  if (typeof schema.pattern === "string") return fc.stringMatching(new RegExp(schema.pattern));
  const min = (schema.minLength as number | undefined) ?? 0;
  const max = Math.max(min, (schema.maxLength as number | undefined) ?? SHOWN_STRING_LENGTH);
  const plain = anyString(min, Math.min(max, SHOWN_STRING_LENGTH));
  return min <= 12 && max >= 13 ? fc.oneof(plain, fc.constantFrom(...SANDBOX_INPUTS)) : plain;
}

export function numberValue(schema: Json, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMin = schema.exclusiveMinimum as number | undefined;
  const min = (schema.minimum as number | undefined) ?? exclusiveMin;
  const max = schema.maximum as number | undefined;
  if (integer) {
    return fc.integer({
      min: min === undefined ? Number.MIN_SAFE_INTEGER : Math.ceil(min + (exclusiveMin ? 1 : 0)),
      max: max ?? Number.MAX_SAFE_INTEGER,
    });
  }
  return fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(min === undefined ? {} : { min, minExcluded: exclusiveMin !== undefined }),
    ...(max === undefined ? {} : { max }),
  });
}

export function objectValue(schema: Json, hints: Hints): fc.Arbitrary<Json> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  if (schema.properties === undefined) {
    return fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), {
      maxKeys: 4,
    });
  }
  const model = Object.fromEntries(
    names.map((name) => [name, hints[name] ?? validValue(properties[name] as JsonSchema, hints)]),
  );
  const required = (schema.required ?? []) as string[];
  const alternatives = ((schema.anyOf ?? [{ required: [] }]) as Json[]).map((branch) => {
    if (Object.keys(branch).some((key) => key !== "required")) {
      throw new Error("only anyOf branches of the form {required: [...]} are fuzzed");
    }
    return branch.required as string[];
  });
  return fc.oneof(
    ...alternatives.map((branch) =>
      fc.record(model, { requiredKeys: [...new Set([...required, ...branch])] }),
    ),
  );
}

/** Values the schema accepts. */
export function validValue(schema: JsonSchema, hints: Hints = {}): fc.Arbitrary<unknown> {
  const node = check(schema);
  switch (node.type) {
    case "object":
      return objectValue(node, hints);
    case "string":
      return stringValue(node);
    case "integer":
    case "number":
      return numberValue(node, node.type === "integer");
    case "boolean":
      return fc.boolean();
    case "array": {
      const min = (node.minItems as number | undefined) ?? 0;
      const max = Math.min((node.maxItems as number | undefined) ?? SHOWN_ARRAY_LENGTH, min + 3);
      return fc.array(validValue(node.items as JsonSchema, hints), {
        minLength: min,
        maxLength: max,
      });
    }
    default:
      throw new Error(`type ${JSON.stringify(node.type)} is not fuzzed yet`);
  }
}
