/** Reads catalog/ from disk and proves every file against the catalog's own schema. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { checkPlatformFile, checkUnique } from "./checks.js";
import { CatalogError } from "./errors.js";
import { toViolations } from "./messages.js";
import type {
  CatalogDocument,
  EndpointDescriptor,
  JsonSchema,
  PlatformDescriptor,
} from "./types.js";
import { type SchemaValidator, sharedAjv } from "./validator.js";

const SCHEMA_FILE = "catalog.schema.json";
const INDEX_FILE = "index.json";

/** `catalog/` beside `src/` and `dist/` alike (this module sits two levels below the package). */
export const DEFAULT_CATALOG_DIR = fileURLToPath(new URL("../../catalog/", import.meta.url));

interface IndexFile {
  schema_version: string;
  platform_files: string[];
}

type PlatformFile = PlatformDescriptor & { endpoints: EndpointDescriptor[] };

interface SchemaSet {
  catalog: ValidateFunction;
  index: ValidateFunction;
  platformFile: ValidateFunction;
}

// Keyed by the schema file's text: the same schema is compiled once per process.
const schemaSets = new Map<string, SchemaSet>();

function readJson(file: string): { text: string; value: unknown } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new CatalogError(file, [{ path: "(root)", message: `cannot be read (${reason})` }]);
  }
  try {
    return { text, value: JSON.parse(text) };
  } catch (error) {
    throw new CatalogError(file, [
      { path: "(root)", message: `is not valid JSON: ${(error as Error).message}` },
    ]);
  }
}

function compileSchemaSet(file: string): SchemaSet {
  const { text, value } = readJson(file);
  const cached = schemaSets.get(text);
  if (cached) return cached;
  const schema = value as JsonSchema;
  const id = typeof schema.$id === "string" ? schema.$id : "";
  try {
    const ajv = sharedAjv();
    // A changed schema file (same $id, other text) replaces the one compiled before.
    if (id !== "") ajv.removeSchema(id);
    const catalog = ajv.compile(schema);
    const def = (name: string): ValidateFunction => {
      const found = ajv.getSchema(`${id}#/$defs/${name}`);
      if (!found) throw new Error(`$defs/${name} is missing`);
      return found;
    };
    const set = { catalog, index: def("index"), platformFile: def("platform_file") };
    schemaSets.set(text, set);
    return set;
  } catch (error) {
    throw new CatalogError(file, [
      { path: "(root)", message: `is not a usable JSON Schema: ${(error as Error).message}` },
    ]);
  }
}

function prove<T>(validate: ValidateFunction, file: string, value: unknown): T {
  if (!validate(value)) throw new CatalogError(file, toViolations(validate.errors ?? []));
  return value as T;
}

export interface LoadedCatalog {
  document: CatalogDocument;
  /** One compiled input validator per endpoint, keyed by public_id. */
  validators: Map<string, SchemaValidator>;
}

/**
 * Reads index.json and every platform file it names, checks each against the catalog's schema
 * and the cross-file rules, and compiles every input schema once. Throws CatalogError.
 */
export function readCatalog(dir: string = DEFAULT_CATALOG_DIR): LoadedCatalog {
  const schemas = compileSchemaSet(join(dir, SCHEMA_FILE));
  const indexFile = join(dir, INDEX_FILE);
  const index = prove<IndexFile>(schemas.index, indexFile, readJson(indexFile).value);
  const platforms: PlatformDescriptor[] = [];
  const endpoints: EndpointDescriptor[] = [];
  const validators = new Map<string, SchemaValidator>();
  const owners = new Map<string, string>();
  index.platform_files.forEach((name, position) => {
    const file = join(dir, name);
    const data = prove<PlatformFile>(schemas.platformFile, file, readJson(file).value);
    for (const [id, validator] of checkPlatformFile(file, name, data))
      validators.set(id, validator);
    checkUnique(file, data.endpoints, owners);
    if (platforms.some((platform) => platform.platform === data.platform)) {
      throw new CatalogError(indexFile, [
        { path: `platform_files[${position}]`, message: `repeats platform "${data.platform}"` },
      ]);
    }
    const { endpoints: own, ...platform } = data;
    platforms.push(platform);
    endpoints.push(...own);
  });
  const document: CatalogDocument = { schema_version: index.schema_version, platforms, endpoints };
  return { document, validators };
}
