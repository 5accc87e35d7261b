/** The endpoint catalog: loaded and proven once at start, then indexed and ready to validate. */

import { UnknownEndpointError } from "./errors.js";
import { estimateCredits } from "./estimate.js";
import { DEFAULT_CATALOG_DIR, type LoadedCatalog, readCatalog } from "./load.js";
import { nearestNames } from "./nearest.js";
import type { Catalog, EndpointDescriptor } from "./types.js";
import type { SchemaValidator } from "./validator.js";

export { toolNameOf } from "./checks.js";
export { CatalogError, UnknownEndpointError } from "./errors.js";
export { DEFAULT_CATALOG_DIR } from "./load.js";
export { nearestNames } from "./nearest.js";
export type * from "./types.js";
export { createSchemaValidator, type SchemaValidator } from "./validator.js";

/** The three accepted spellings of one endpoint: `p/r`, `svc_p_r` and `p_r` (lower case). */
function namesOf(endpoint: EndpointDescriptor): string[] {
  const short = `${endpoint.platform}_${endpoint.resource}`.replaceAll("-", "_");
  return [endpoint.public_id, endpoint.tool_name, short];
}

interface Entry {
  endpoint: EndpointDescriptor;
  validate: SchemaValidator;
}

function createCatalog({ document, validators }: LoadedCatalog): Catalog {
  const byName = new Map<string, Entry>();
  for (const endpoint of document.endpoints) {
    const validate = validators.get(endpoint.public_id);
    if (validate === undefined) throw new Error(`no validator for ${endpoint.public_id}`);
    for (const name of namesOf(endpoint)) byName.set(name, { endpoint, validate });
  }
  const ids = document.endpoints.map((endpoint) => endpoint.public_id);
  const entry = (nameOrId: string): Entry => {
    const found = byName.get(nameOrId.trim().toLowerCase());
    if (found === undefined) throw new UnknownEndpointError(nameOrId, nearestNames(nameOrId, ids));
    return found;
  };

  return {
    document,
    schemaVersion: document.schema_version,
    platforms: document.platforms,
    endpoints: document.endpoints,
    endpoint: (nameOrId) => byName.get(nameOrId.trim().toLowerCase())?.endpoint,
    validate: (endpointId, input) => entry(endpointId).validate(input),
    estimate: (endpointId, input) => estimateCredits(entry(endpointId).endpoint.billing, input),
  };
}

/**
 * Loads the catalog from `dir` (default: the package's `catalog/` folder), proves it against its
 * own schema and rules, and compiles one input validator per endpoint. Throws CatalogError naming
 * the file and the JSON path of the first problems; UnknownEndpointError from validate/estimate.
 */
export function loadCatalog(dir: string = DEFAULT_CATALOG_DIR): Catalog {
  return createCatalog(readCatalog(dir));
}
