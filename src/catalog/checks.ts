/** Rules a platform file must keep beyond its JSON Schema: names, counts, callbacks, examples. */
import { CatalogError } from "./errors.js";
import type { EndpointDescriptor, PlatformDescriptor, Violation } from "./types.js";
import { compileSchema, type SchemaValidator, toValidator } from "./validator.js";

/** `svc_{platform}_{resource}` with every `-` as `_`. */
export function toolNameOf(platform: string, resource: string): string {
  return `svc_${platform}_${resource}`.replaceAll("-", "_");
}

type PlatformFile = PlatformDescriptor & { endpoints: EndpointDescriptor[] };

function fieldNames(endpoint: EndpointDescriptor): string[] {
  return Object.keys((endpoint.input_schema.properties ?? {}) as Record<string, unknown>);
}

function namedInputs(endpoint: EndpointDescriptor): Array<[string, string[]]> {
  const schema = endpoint.input_schema as { required?: string[]; anyOf?: { required: string[] }[] };
  const basis = endpoint.billing.estimate_basis;
  return [
    ["input_schema.required", schema.required ?? []],
    ...(schema.anyOf ?? []).map((branch, i): [string, string[]] => [
      `input_schema.anyOf[${i}].required`,
      branch.required,
    ]),
    ["billing.estimate_basis.input", basis.input === undefined ? [] : [basis.input]],
    ["billing.estimate_basis.inputs", basis.inputs ?? []],
  ];
}

function endpointViolations(
  platform: string,
  endpoint: EndpointDescriptor,
  at: string,
): Violation[] {
  const found: Violation[] = [];
  const expect = (field: keyof EndpointDescriptor, wanted: string) => {
    if (endpoint[field] !== wanted) {
      found.push({
        path: `${at}.${field}`,
        message: `must be "${wanted}" (got "${endpoint[field]}")`,
      });
    }
  };
  expect("platform", platform);
  expect("public_id", `${endpoint.platform}/${endpoint.resource}`);
  expect("tool_name", toolNameOf(endpoint.platform, endpoint.resource));
  const fields = fieldNames(endpoint);
  for (const [where, names] of namedInputs(endpoint)) {
    for (const name of names.filter((name) => !fields.includes(name))) {
      found.push({
        path: `${at}.${where}`,
        message: `names "${name}", which is not an input field`,
      });
    }
  }
  const callback = (endpoint.input_schema.properties as Record<string, { format?: string }>)
    .callback_url;
  if (endpoint.supports_callback !== (callback !== undefined)) {
    found.push({
      path: `${at}.input_schema.properties.callback_url`,
      message: `must be present exactly when supports_callback is true (it is ${endpoint.supports_callback})`,
    });
  } else if (callback !== undefined && callback.format !== "uri") {
    found.push({
      path: `${at}.input_schema.properties.callback_url.format`,
      message: 'must be "uri"',
    });
  }
  return found;
}

function compileInput(file: string, endpoint: EndpointDescriptor, at: string): SchemaValidator {
  try {
    return toValidator(compileSchema(endpoint.input_schema));
  } catch (error) {
    throw new CatalogError(file, [
      {
        path: `${at}.input_schema`,
        message: `is not a usable JSON Schema: ${(error as Error).message}`,
      },
    ]);
  }
}

function exampleViolations(validate: SchemaValidator, endpoint: EndpointDescriptor, at: string) {
  return endpoint.examples.flatMap((example, i) => {
    const result = validate(example.input);
    if (result.valid) return [];
    return result.violations.map((violation) => ({
      path: `${at}.examples[${i}].input`,
      message: `breaks the input schema: ${violation.message}`,
    }));
  });
}

/**
 * Checks one platform file (named `name` in the index) and compiles its input schemas.
 * Returns the validators by public_id; throws CatalogError naming the file and the path.
 */
export function checkPlatformFile(
  file: string,
  name: string,
  data: PlatformFile,
): Map<string, SchemaValidator> {
  const found: Violation[] = [];
  if (name !== `${data.platform}.json`) {
    found.push({
      path: "platform",
      message: `must match the file name ${name} (got "${data.platform}")`,
    });
  }
  if (data.endpoint_count !== data.endpoints.length) {
    found.push({
      path: "endpoint_count",
      message: `must equal the number of endpoints, ${data.endpoints.length} (got ${data.endpoint_count})`,
    });
  }
  const toolNames = data.endpoints.map((endpoint) => endpoint.tool_name);
  if (data.tools.join() !== toolNames.join()) {
    found.push({
      path: "tools",
      message: `must list the endpoints' tool names in order: ${toolNames.join(", ")}`,
    });
  }
  const validators = new Map<string, SchemaValidator>();
  data.endpoints.forEach((endpoint, i) => {
    const at = `endpoints[${i}]`;
    found.push(...endpointViolations(data.platform, endpoint, at));
    const validate = compileInput(file, endpoint, at);
    found.push(...exampleViolations(validate, endpoint, at));
    validators.set(endpoint.public_id, validate);
  });
  if (found.length > 0) throw new CatalogError(file, found);
  return validators;
}

/** Public ids and tool names are unique across the catalog; `owners` maps each to its file. */
export function checkUnique(
  file: string,
  endpoints: readonly EndpointDescriptor[],
  owners: Map<string, string>,
): void {
  endpoints.forEach((endpoint, i) => {
    for (const key of ["public_id", "tool_name"] as const) {
      const value = endpoint[key];
      const owner = owners.get(value);
      if (owner !== undefined) {
        throw new CatalogError(file, [
          { path: `endpoints[${i}].${key}`, message: `"${value}" is already used in ${owner}` },
        ]);
      }
      owners.set(value, file);
    }
  });
}
