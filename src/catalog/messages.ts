/** Turns ajv's error objects into violations a model (or a person) can act on, without ajv terms. */
import type { ErrorObject } from "ajv";
import type { Violation } from "./types.js";

const ROOT = "(root)";
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** JSON Pointer (`/urls/0`) -> readable path (`urls[0]`); the empty pointer is `(root)`. */
export function pointerToPath(pointer: string): string {
  if (pointer === "") return ROOT;
  let path = "";
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) path += path === "" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

function childPath(parent: string, key: string): string {
  return pointerToPath(`${parent}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
}

/** A short, JSON-ish rendering of the offending value for "(got ...)". */
function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  return String(value);
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  null: "null",
};

const FORMAT_HINTS: Record<string, string> = {
  uri: "an absolute URI such as https://example.com/hook",
  "uri-reference": "a URI or relative reference such as /hook",
  url: "an absolute URL such as https://example.com/page",
  email: "an email address such as name@example.com",
  date: "a date in the form YYYY-MM-DD, such as 2024-01-31",
  "date-time": "a date and time such as 2024-01-31T12:00:00Z",
  time: "a time such as 12:00:00Z",
};

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function typeMessage(target: string, expected: unknown, value: unknown): string {
  const names = (Array.isArray(expected) ? expected : [expected]).map(
    (type) => TYPE_NAMES[String(type)] ?? String(type),
  );
  if (target === ROOT)
    return `the input must be ${names.join(" or ")} (got ${describeValue(value)})`;
  return `${target} must be ${names.join(" or ")} (got ${describeValue(value)})`;
}

function accepted(parentSchema: unknown): string[] {
  const properties = (parentSchema as { properties?: Record<string, unknown> } | undefined)
    ?.properties;
  return properties ? Object.keys(properties) : [];
}

/** Field names that satisfy an `anyOf`/`oneOf` of `{required: [...]}` alternatives. */
function alternatives(schema: unknown): string[] | undefined {
  if (!Array.isArray(schema)) return undefined;
  const names: string[] = [];
  for (const branch of schema) {
    const required = (branch as { required?: unknown } | null)?.required;
    if (!Array.isArray(required) || required.length !== 1) return undefined;
    names.push(String(required[0]));
  }
  return names;
}

function toViolation(error: ErrorObject): Violation {
  const at = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const got = describeValue(error.data);
  switch (error.keyword) {
    case "required": {
      const field = String(params.missingProperty);
      return {
        path: childPath(error.instancePath, field),
        message: `missing required field "${field}"`,
      };
    }
    case "additionalProperties":
    case "unevaluatedProperties": {
      const field = String(params.additionalProperty ?? params.unevaluatedProperty);
      const names = accepted(error.parentSchema);
      const owner = at === ROOT ? "this endpoint" : at;
      const list = names.length > 0 ? names.join(", ") : "no fields";
      return {
        path: childPath(error.instancePath, field),
        message: `unknown field "${field}": ${owner} accepts only ${list}`,
      };
    }
    case "dependentRequired": {
      const field = String(params.missingProperty);
      return {
        path: childPath(error.instancePath, field),
        message: `missing field "${field}", required when "${params.property}" is given`,
      };
    }
    case "anyOf":
    case "oneOf": {
      const names = alternatives(error.schema);
      if (names === undefined) {
        return { path: at, message: `${at} does not match any of the accepted forms` };
      }
      const rule =
        error.keyword === "anyOf"
          ? `provide at least one of ${names.join(", ")}`
          : `provide exactly one of ${names.join(", ")}`;
      return { path: at, message: rule };
    }
    case "type":
      return { path: at, message: typeMessage(at, params.type, error.data) };
    case "minimum":
      return { path: at, message: `${at} must be at least ${params.limit} (got ${got})` };
    case "maximum":
      return { path: at, message: `${at} must be at most ${params.limit} (got ${got})` };
    case "exclusiveMinimum":
      return { path: at, message: `${at} must be greater than ${params.limit} (got ${got})` };
    case "exclusiveMaximum":
      return { path: at, message: `${at} must be less than ${params.limit} (got ${got})` };
    case "multipleOf":
      return { path: at, message: `${at} must be a multiple of ${params.multipleOf} (got ${got})` };
    case "minLength":
      return params.limit === 1
        ? { path: at, message: `${at} must not be empty` }
        : {
            path: at,
            message: `${at} must be at least ${plural(Number(params.limit), "character")} long`,
          };
    case "maxLength":
      return {
        path: at,
        message: `${at} must be at most ${plural(Number(params.limit), "character")} long`,
      };
    case "minItems":
      return {
        path: at,
        message: `${at} must list at least ${plural(Number(params.limit), "item")} (got ${got})`,
      };
    case "maxItems":
      return {
        path: at,
        message: `${at} must list at most ${plural(Number(params.limit), "item")}`,
      };
    case "uniqueItems": {
      const [first, second] = [Number(params.i), Number(params.j)].sort((a, b) => a - b);
      return {
        path: at,
        message: `${at} must not repeat items (items ${first} and ${second} are the same)`,
      };
    }
    case "minProperties":
      return {
        path: at,
        message: `${at} must have at least ${plural(Number(params.limit), "field")}`,
      };
    case "maxProperties":
      return {
        path: at,
        message: `${at} must have at most ${plural(Number(params.limit), "field")}`,
      };
    case "enum": {
      const values = (params.allowedValues as unknown[]).map((value) => JSON.stringify(value));
      return { path: at, message: `${at} must be one of ${values.join(", ")} (got ${got})` };
    }
    case "const":
      return {
        path: at,
        message: `${at} must be ${JSON.stringify(params.allowedValue)} (got ${got})`,
      };
    case "format": {
      const format = String(params.format);
      const hint = FORMAT_HINTS[format] ?? `in ${format} format`;
      return { path: at, message: `${at} must be ${hint} (got ${got})` };
    }
    case "pattern":
      return { path: at, message: `${at} must match the pattern ${params.pattern} (got ${got})` };
    case "propertyNames":
      return { path: at, message: `${at} has a field name that is not allowed` };
    default:
      return { path: at, message: `${at} is not valid: ${error.message ?? error.keyword}` };
  }
}

/**
 * Every violation, once each. The branch errors of an `anyOf`/`oneOf` are folded into its one
 * message, `propertyNames` into its own, and an empty string reports only that it is empty (not
 * also that it breaks its format or pattern).
 */
export function toViolations(errors: readonly ErrorObject[]): Violation[] {
  const combinators = errors
    .filter((error) => ["anyOf", "oneOf", "propertyNames"].includes(error.keyword))
    .map((error) => `${error.schemaPath}/`);
  const emptyPaths = new Set(
    errors.filter((error) => error.keyword === "minLength").map((error) => error.instancePath),
  );
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const error of errors) {
    if (combinators.some((prefix) => error.schemaPath.startsWith(prefix))) continue;
    const masked = error.keyword === "format" || error.keyword === "pattern";
    if (masked && emptyPaths.has(error.instancePath)) continue;
    const violation = toViolation(error);
    const key = `${violation.path}\n${violation.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    violations.push(violation);
  }
  return violations;
}
