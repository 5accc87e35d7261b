import type { EndpointDescriptor } from "../../src/catalog/types.js";
import type { TaskPlan } from "../../src/sandbox/plan.js";

/** A descriptor with only what the engine, records and files read; the contract tests use the catalog. */
export function endpointFixture(publicId = "video-network/videos"): EndpointDescriptor {
  const [platform = "", resource = ""] = publicId.split("/");
  return {
    public_id: publicId,
    platform,
    resource,
    tool_name: `svc_${publicId.replace(/[/-]/g, "_")}`,
    title: publicId,
    description: publicId,
    input_schema: { type: "object" },
    output_schema: { type: "object" },
    billing: {
      mode: "base_plus_result",
      base_credits: 0,
      credits_per_result: 0.3,
      unit: "result",
      unit_size: 1,
      allow_overage: 1,
      empty_result_policy: "base_only",
      dynamic_price: true,
      estimate_basis: { results: 100 },
      price_source: "default",
    },
    examples: [],
    tags: [],
    execution_mode: "async",
    supports_pagination: true,
    supports_files: true,
    supports_callback: true,
    status: "stable",
  };
}

export function planFixture(overrides: Partial<TaskPlan> = {}): TaskPlan {
  return {
    seed: 42,
    resultCount: 10,
    failure: undefined,
    queuedMs: 100,
    runningMs: 200,
    ...overrides,
  };
}
