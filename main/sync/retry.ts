// Bounded retries with exponential backoff and full jitter, for the failures worth retrying (§7: no answer,
// a timeout, a 5xx). Anything else is thrown at once.
import { PlatformError } from './errors';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  tries: number;
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { tries: 5, baseMs: 250, maxMs: 8000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The wait before try `attempt + 1`: uniform in [0, min(max, base x 2^attempt)]. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  return Math.round(random() * Math.min(policy.maxMs, policy.baseMs * 2 ** attempt));
}

export async function withRetry<T>(work: (attempt: number) => Promise<T>, policy: RetryPolicy, onRetry?: (error: PlatformError, waitMs: number) => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (!(error instanceof PlatformError) || !error.retryable || attempt + 1 >= policy.tries) throw error;
      const wait = backoffMs(attempt, policy);
      onRetry?.(error, wait);
      await sleep(wait);
    }
  }
}
