/**
 * fast-check arbitraries from a JSON Schema, for the subset the tools and the catalog use.
 * `validValue` generates values the schema accepts; `invalidValue` generates values it rejects,
 * each with the JSON Pointer of the rule it breaks. A keyword outside the subset throws, so a
 * schema that outgrows this file is noticed instead of being fuzzed wrongly.
 */
import fc from "fast-check";
import type { JsonSchema } from "../../src/catalog/types.js";

/** Overrides by property name, for fields whose meaning matters (ids, loopback-only URLs). */
export type Hints = Readonly<Record<string, fc.Arbitrary<unknown>>>;

export interface Mutation {
  value: unknown;
  /** JSON Pointer of the broken rule ("" for the whole value). */
  pointer: string;
}

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

type Json = Record<string, unknown>;

function check(schema: JsonSchema): Json {
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

function anyString(min: number, max: number): fc.Arbitrary<string> {
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

function numberValue(schema: Json, integer: boolean): fc.Arbitrary<number> {
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

function objectValue(schema: Json, hints: Hints): fc.Arbitrary<Json> {
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

function matchesType(value: unknown, type: unknown): boolean {
  switch (type) {
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    default:
      return typeof value === type;
  }
}

const anyJsonType = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);

const at =
  (pointer: string) =>
  (value: unknown): Mutation => ({ value, pointer });

/** Values of one field that break one of its own rules, with the pointer below the field. */
function invalidField(schema: JsonSchema): fc.Arbitrary<Mutation> {
  const node = check(schema);
  const broken: fc.Arbitrary<Mutation>[] = [
    anyJsonType.filter((value) => !matchesType(value, node.type)).map(at("")),
  ];
  const { minimum, maximum, exclusiveMinimum, minLength, maxLength, minItems, maxItems } =
    node as Record<string, number | undefined>;
  const numeric = { noNaN: true, noDefaultInfinity: true } as const;
  if (minimum !== undefined)
    broken.push(fc.double({ ...numeric, max: minimum, maxExcluded: true }).map(at("")));
  if (maximum !== undefined)
    broken.push(fc.double({ ...numeric, min: maximum, minExcluded: true }).map(at("")));
  if (exclusiveMinimum !== undefined)
    broken.push(fc.double({ ...numeric, max: exclusiveMinimum }).map(at("")));
  if (node.type === "integer") {
    broken.push(
      numberValue(node, false)
        .filter((n) => !Number.isInteger(n))
        .map(at("")),
    );
  }
  if (minLength !== undefined && minLength > 0) {
    broken.push(anyString(0, minLength - 1).map(at("")));
  }
  if (maxLength !== undefined) broken.push(anyString(maxLength + 1, maxLength + 5).map(at("")));
  if (Array.isArray(node.enum)) {
    broken.push(
      fc
        .string()
        .filter((text) => !(node.enum as unknown[]).includes(text))
        .map(at("")),
    );
  }
  if (node.format === "uri") {
    // Without a scheme a string is no URI; nothing here can name a host to call.
    broken.push(
      fc
        .string({ minLength: 1 })
        .map((text) => `no scheme ${text.replaceAll(":", "")}`)
        .map(at("")),
    );
  }
  if (typeof node.pattern === "string") {
    const pattern = new RegExp(node.pattern);
    broken.push(
      fc
        .string({ minLength: 1 })
        .filter((text) => !pattern.test(text))
        .map(at("")),
    );
  }
  if (node.type === "array") {
    const items = node.items as JsonSchema;
    if (minItems !== undefined && minItems > 0) broken.push(fc.constant([]).map(at("")));
    if (maxItems !== undefined) {
      broken.push(
        fc
          .array(validValue(items), { minLength: maxItems + 1, maxLength: maxItems + 2 })
          .map(at("")),
      );
    }
    broken.push(
      fc
        .tuple(
          fc.array(validValue(items), { minLength: 1, maxLength: 3 }),
          invalidField(items),
          fc.nat(),
        )
        .map(([list, bad, n]) => {
          const index = n % list.length;
          const copy = [...list];
          copy[index] = bad.value;
          return { value: copy, pointer: `/${index}${bad.pointer}` };
        }),
    );
  }
  return fc.oneof(...broken);
}

function withField(object: Json, name: string, value: unknown): Json {
  const copy: Json = { ...object };
  // defineProperty, so that "__proto__" becomes an own field and is sent like any other.
  Object.defineProperty(copy, name, {
    value,
    enumerable: true,
    configurable: true,
    writable: true,
  });
  return copy;
}

function without(object: Json, names: readonly string[]): Json {
  return Object.fromEntries(Object.entries(object).filter(([key]) => !names.includes(key)));
}

/** Objects the schema rejects, each breaking one rule (more may break as a consequence). */
export function invalidValue(schema: JsonSchema, hints: Hints = {}): fc.Arbitrary<Mutation> {
  const node = check(schema);
  if (node.type !== "object") return invalidField(schema);
  const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  const base = objectValue(node, hints);
  const unknownName = fc
    .oneof(
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.constantFrom("__proto__", "constructor", "api_key"),
    )
    .filter((name) => !names.includes(name));
  const mutations: fc.Arbitrary<Mutation>[] = [
    fc.tuple(base, unknownName, fc.jsonValue({ maxDepth: 1 })).map(([object, name, value]) => ({
      value: withField(object, name, value),
      pointer: `/${escapePointer(name)}`,
    })),
  ];
  const required = (node.required ?? []) as string[];
  if (required.length > 0) {
    mutations.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([object, name]) => ({
        value: without(object, [name]),
        pointer: `/${escapePointer(name)}`,
      })),
    );
  }
  if (Array.isArray(node.anyOf)) {
    const alternatives = (node.anyOf as Json[]).flatMap((branch) => branch.required as string[]);
    mutations.push(base.map((object) => ({ value: without(object, alternatives), pointer: "" })));
  }
  for (const name of names) {
    mutations.push(
      fc.tuple(base, invalidField(properties[name] as JsonSchema)).map(([object, bad]) => ({
        value: withField(object, name, bad.value),
        pointer: `/${escapePointer(name)}${bad.pointer}`,
      })),
    );
  }
  return fc.oneof(...mutations);
}
