// What can go wrong talking to the platform (platform-api §7), sorted by what the outbox does about it.
import { maskKeysIn } from './mask-key';

/** network: no answer (refused, reset, DNS); timeout: no answer in time; http: an answer with a status. */
export type FailureKind = 'network' | 'timeout' | 'http' | 'refused' | 'no_key';

/** 5xx answers that say the request itself cannot be served, not that the host is having trouble. */
const PERMANENT_5XX = new Set([501, 505]);

export class PlatformError extends Error {
  /** The HTTP status; 0 when nothing came back (§7.1). */
  readonly status: number;
  readonly kind: FailureKind;
  /** The platform's own reason (`error` of the body), when it gave one. */
  readonly reason?: string;
  constructor(kind: FailureKind, status: number, message: string, reason?: string) {
    super(maskKeysIn(message));
    this.name = 'PlatformError';
    this.kind = kind;
    this.status = status;
    this.reason = reason;
  }

  /**
   * Worth trying again as it is: no answer, a timeout, a 5xx, or 429. Not 501 (Not Implemented) or 505: the host
   * will refuse the same request the same way every time (storage that answers as S3 does says 501 to a chunked
   * body), so trying again only repeats the refusal.
   */
  get retryable(): boolean {
    if (this.kind === 'network' || this.kind === 'timeout') return true;
    return (this.status >= 500 && !PERMANENT_5XX.has(this.status)) || this.status === 429;
  }

  /** The key is missing or refused: the person must sign in again; the work is kept. */
  get needsSignIn(): boolean {
    return this.kind === 'no_key' || this.status === 401;
  }

  get billingRequired(): boolean {
    return this.status === 402;
  }
}

/** What to tell a person, in their words, for any failure. */
export function explain(error: unknown): string {
  if (!(error instanceof PlatformError)) return maskKeysIn(error instanceof Error ? error.message : String(error));
  if (error.needsSignIn) return `sign in again (\`while-desk login\`): ${error.message}`;
  if (error.billingRequired) return `billing required: the While account needs a paid plan or a payment method for this (${error.message})`;
  return error.message;
}
