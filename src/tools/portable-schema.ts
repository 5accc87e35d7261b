/**
 * The typed tools' input schema as `tools/list` shows it: the catalog's schema made portable.
 * Several MCP clients reject top-level combinators and `$ref`, so local references are inlined and
 * whole-object rules are dropped from the schema and stated in words for the description. The full
 * catalog schema still validates every call server-side.
 *
 * The listing is also kept lean, because every connection pays for it in tokens: a field shows the
 * first sentence of its description, and `minLength: 1` (the rule of every string input) is left
 * implicit. svc_describe_endpoint shows the catalog's schema in full.
 */
import type { JsonSchema } from "../catalog/types.js";

export interface PortableSchema {
  schema: JsonSchema;
  /** Sentences stating the rules the portable schema no longer carries. */
  rules: string[];
}

/** Keywords that only carry metadata or reference targets; dropped once references are inlined. */
const METADATA_KEYWORDS = ["$schema", "$id", "$defs", "definitions", "$comment", "$anchor"];
/** Whole-object rules that some clients reject at the top level of a tool's input schema. */
const OBJECT_RULE_KEYWORDS = [
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
];
const MAX_REFERENCE_DEPTH = 32;
/** A sentence ends at ". " before a capital letter, not after an abbreviation such as "e.g.". */
const SENTENCE_END = /(?<!\b(?:e\.g|i\.e|etc|vs))\.\s+(?=[A-Z])/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolvePointer(root: Json, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`unsupported $ref "${ref}": only local references`);
  let target: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const segment = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    target = isObject(target) ? target[segment] : undefined;
  }
  if (target === undefined) throw new Error(`unresolvable $ref "${ref}"`);
  return target;
}

/** A copy of `node` with every local `$ref` replaced by (a copy of) its target. */
function inlineReferences(node: unknown, root: Json, depth = 0): unknown {
  if (depth > MAX_REFERENCE_DEPTH) throw new Error("$ref nesting too deep (a cycle?)");
  if (Array.isArray(node)) return node.map((item) => inlineReferences(item, root, depth));
  if (!isObject(node)) return node;
  const { $ref, ...rest } = node;
  const base =
    typeof $ref === "string" ? inlineReferences(resolvePointer(root, $ref), root, depth + 1) : {};
  const copy: Json = isObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(rest)) copy[key] = inlineReferences(value, root, depth);
  return copy;
}

function requiredSet(branch: unknown): string | undefined {
  if (!isObject(branch)) return undefined;
  const keys = Object.keys(branch);
  const required = branch.required;
  if (keys.length !== 1 || !Array.isArray(required) || required.length === 0) return undefined;
  return required.join(" and ");
}

/** "Give at least one of: query, urls, usernames (they can be combined)." for the common presence rules; else the JSON. */
export function describeRule(keyword: string, value: unknown): string {
  if ((keyword === "anyOf" || keyword === "oneOf") && Array.isArray(value)) {
    const sets = value.map(requiredSet);
    if (sets.every((set) => set !== undefined)) {
      return keyword === "anyOf"
        ? `Give at least one of: ${sets.join(", ")} (they can be combined).`
        : `Give exactly one of: ${sets.join(", ")}.`;
    }
  }
  if (keyword === "dependentRequired" && isObject(value)) {
    return Object.entries(value)
      .map(([field, needs]) => `With ${field}, also give ${[needs].flat().join(", ")}.`)
      .join(" ");
  }
  return `Input must also satisfy ${keyword}: ${JSON.stringify(value)}.`;
}

export function firstSentence(text: string): string {
  const [first = text] = text.split(SENTENCE_END);
  return first === text || first.endsWith(".") ? first : `${first}.`;
}

/** Field schemas as listed: first-sentence descriptions, no `minLength: 1`. */
function leanField(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(leanField);
  if (!isObject(node)) return node;
  const lean: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "minLength" && value === 1) continue;
    lean[key] =
      key === "description" && typeof value === "string" ? firstSentence(value) : leanField(value);
  }
  return lean;
}

export function portableInputSchema(catalogSchema: JsonSchema): PortableSchema {
  const inlined = inlineReferences(catalogSchema, catalogSchema) as Json;
  const schema: Json = { type: "object" };
  const rules: string[] = [];
  for (const [key, value] of Object.entries(inlined)) {
    if (METADATA_KEYWORDS.includes(key)) continue;
    if (OBJECT_RULE_KEYWORDS.includes(key)) rules.push(describeRule(key, value));
    else if (key === "properties" && isObject(value)) {
      schema.properties = Object.fromEntries(
        Object.entries(value).map(([name, field]) => [name, leanField(field)]),
      );
    } else schema[key] = value;
  }
  schema.type = "object";
  schema.additionalProperties = false;
  return { schema, rules };
}
