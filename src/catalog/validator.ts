/** The one JSON Schema 2020-12 validator factory of the project (catalog inputs, tool inputs). */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { toViolations } from "./messages.js";
import type { JsonSchema, ValidationResult } from "./types.js";

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/**
 * Every error (allErrors), the offending value and schema on each error (verbose, for the
 * messages), unknown keywords and formats rejected (strict), and nothing logged. Schemas are not
 * validated against the 2020-12 meta-schema: compiling that costs about a third of start-up, and
 * ajv still rejects a keyword value of the wrong type while compiling (e.g. `minLength: "1"`).
 */
function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
    strictTypes: false,
    logger: false,
    validateSchema: false,
  });
  addFormats(ajv);
  return ajv;
}

let shared: Ajv2020 | undefined;

/** The process's one instance (the 2020 meta-schema and the formats are compiled once). */
export function sharedAjv(): Ajv2020 {
  shared ??= createAjv();
  return shared;
}

const ANNOTATIONS = new Set(["title", "description", "$comment", "examples"]);

/**
 * The schema as text without its annotations: schemas that differ only in wording validate
 * alike, so they share one compiled function. Only string/array values are dropped, so a field
 * that happens to be named `title` (whose value is a schema object) is kept.
 */
function shapeKey(schema: JsonSchema): string {
  return JSON.stringify(schema, (key, value) =>
    ANNOTATIONS.has(key) && (typeof value === "string" || Array.isArray(value)) ? undefined : value,
  );
}

const compiled = new Map<string, ValidateFunction>();

/** Compiles `schema` once per shape (throws if the schema itself is invalid). */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  const key = shapeKey(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = sharedAjv().compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

export type SchemaValidator<T = Record<string, unknown>> = (value: unknown) => ValidationResult<T>;

/** Wraps a compiled function so it returns `{valid, data}` or every violation as a sentence. */
export function toValidator<T>(validate: ValidateFunction): SchemaValidator<T> {
  return (value) =>
    validate(value)
      ? { valid: true, data: value as T }
      : { valid: false, violations: toViolations(validate.errors ?? []) };
}

/** Compile once, validate many times; messages name the path and the rule in plain words. */
export function createSchemaValidator<T = Record<string, unknown>>(
  schema: JsonSchema,
): SchemaValidator<T> {
  return toValidator<T>(compileSchema(schema));
}
