import type { Billing, CreditEstimate } from "./types.js";

/** How many records an input names: an array counts its items, any other present value counts 1. */
function countOf(value: unknown): number {
  if (value === undefined || value === null) return 0;
  return Array.isArray(value) ? value.length : 1;
}

/**
 * Expected results and credits of one submit: the count of the basis' named inputs when any is
 * given, else `results_limit` when given, else the basis' result count.
 */
export function estimateCredits(billing: Billing, input: Record<string, unknown>): CreditEstimate {
  const basis = billing.estimate_basis;
  const names = [basis.input, ...(basis.inputs ?? [])].filter((name) => name !== undefined);
  const named = names.reduce((sum, name) => sum + countOf(input[name]), 0);
  const limit = input.results_limit;
  let results = basis.results;
  if (named > 0) results = named;
  else if (typeof limit === "number" && Number.isInteger(limit) && limit > 0) results = limit;
  const credits = billing.base_credits + billing.credits_per_result * results;
  return { results, credits: Math.round(credits * 100) / 100 };
}
