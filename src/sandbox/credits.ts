/**
 * Per-key credit balances. Amounts are kept in millionths of a credit so that prices like 0.3
 * per result add up exactly.
 */
import type { Billing } from "../catalog/types.js";

const MICROS = 1_000_000;

const toMicros = (credits: number): number => Math.round(credits * MICROS);
const fromMicros = (micros: number): number => micros / MICROS;

/** What a succeeded task costs: the base plus a price per result; an empty result pays the base. */
export function taskCost(billing: Billing, resultCount: number): number {
  const micros =
    toMicros(billing.base_credits) + toMicros(billing.credits_per_result) * resultCount;
  return fromMicros(micros);
}

export interface CreditLedger {
  /** False when the key has nothing left to spend (a submit is then refused with 402). */
  canSpend(key: string): boolean;
  charge(key: string, credits: number): void;
  balance(key: string): { balance: number; used: number };
}

export function createCreditLedger(keys: readonly string[], startingCredits: number): CreditLedger {
  const accounts = new Map(
    keys.map((key) => [key, { balanceMicros: toMicros(startingCredits), usedMicros: 0 }]),
  );
  const account = (key: string) => {
    const found = accounts.get(key);
    if (!found) throw new Error("credit ledger: unknown key");
    return found;
  };
  return {
    canSpend: (key) => account(key).balanceMicros > 0,
    charge(key, credits) {
      const entry = account(key);
      const micros = toMicros(credits);
      entry.balanceMicros -= micros;
      entry.usedMicros += micros;
    },
    balance(key) {
      const entry = account(key);
      return { balance: fromMicros(entry.balanceMicros), used: fromMicros(entry.usedMicros) };
    },
  };
}
