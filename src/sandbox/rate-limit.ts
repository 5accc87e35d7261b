/**
 * A token bucket per key: `perSecond` requests each second, with bursts up to one second's worth.
 * Pure apart from the clock it is given, so it is tested without waiting.
 */

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  take(key: string): RateDecision;
}

export function createRateLimiter(perSecond: number, now: () => number): RateLimiter {
  const capacity = Math.max(1, perSecond);
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      if (perSecond <= 0) return { allowed: true };
      const time = now();
      const bucket = buckets.get(key) ?? { tokens: capacity, at: time };
      bucket.tokens = Math.min(capacity, bucket.tokens + ((time - bucket.at) / 1000) * perSecond);
      bucket.at = time;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true };
      }
      const waitSeconds = (1 - bucket.tokens) / perSecond;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitSeconds)) };
    },
  };
}
