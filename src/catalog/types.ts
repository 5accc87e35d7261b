/** The catalog's data shapes, as stored in catalog/*.json and served by GET /v1/catalog. */

export type JsonSchema = Record<string, unknown>;

export interface EstimateBasis {
  /** Name of the input whose count (array length, or 1 for a string) is the expected result count. */
  input?: string;
  /** Further inputs counted with `input` (their counts add up), e.g. `urls` beside `usernames`. */
  inputs?: string[];
  /** Expected result count when no named input applies and `results_limit` is not given. */
  results: number;
}

export interface Billing {
  mode: "base_plus_result";
  base_credits: number;
  credits_per_result: number;
  unit: "result";
  unit_size: number;
  allow_overage: number;
  empty_result_policy: "base_only";
  dynamic_price: boolean;
  estimate_basis: EstimateBasis;
  /** "service": the price comes from the service's published table; "default": this project's. */
  price_source: "service" | "default";
}

export interface EndpointExample {
  title: string;
  input: Record<string, unknown>;
}

export interface EndpointDescriptor {
  public_id: string;
  platform: string;
  resource: string;
  tool_name: string;
  title: string;
  description: string;
  input_schema: JsonSchema;
  output_schema: JsonSchema;
  billing: Billing;
  examples: EndpointExample[];
  tags: string[];
  execution_mode: "async";
  supports_pagination: boolean;
  supports_files: boolean;
  supports_callback: boolean;
  status: "stable";
}

export interface PlatformDescriptor {
  platform: string;
  title: string;
  endpoint_count: number;
  tools: string[];
}

export interface CatalogDocument {
  schema_version: string;
  platforms: PlatformDescriptor[];
  endpoints: EndpointDescriptor[];
}

/** One rule an input breaks: `path` like `urls[0]` or `latitude`; `(root)` for whole-object rules. */
export interface Violation {
  path: string;
  message: string;
}

export type ValidationResult<T = Record<string, unknown>> =
  | { valid: true; data: T }
  | { valid: false; violations: Violation[] };

export interface CreditEstimate {
  results: number;
  credits: number;
}

/** What src/catalog/index.ts `loadCatalog()` returns; everything is indexed and compiled once. */
export interface Catalog {
  readonly document: CatalogDocument;
  readonly schemaVersion: string;
  readonly platforms: readonly PlatformDescriptor[];
  readonly endpoints: readonly EndpointDescriptor[];
  /** Accepts `platform/resource`, `svc_platform_resource` or `platform_resource`. */
  endpoint(nameOrId: string): EndpointDescriptor | undefined;
  /** Every violation of the endpoint's full input schema (anyOf included). */
  validate(endpointId: string, input: unknown): ValidationResult;
  estimate(endpointId: string, input: Record<string, unknown>): CreditEstimate;
}
