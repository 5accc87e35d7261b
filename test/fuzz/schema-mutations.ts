/**
 * fast-check arbitraries of values a JSON Schema rejects, each breaking one rule and carrying the
 * JSON Pointer of that rule: a wrong type, a bound crossed, a missing or unknown field, none of
 * the "at least one of" fields, a bad list item.
 */
import fc from "fast-check";
import type { JsonSchema } from "../../src/catalog/types.js";
import {
  anyString,
  check,
  escapePointer,
  type Hints,
  type Json,
  numberValue,
  objectValue,
  validValue,
} from "./schema-arbitraries.js";

export interface Mutation {
  value: unknown;
  /** JSON Pointer of the broken rule ("" for the whole value). */
  pointer: string;
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
