// The SDK's refusal types the platform rules raise (platform-api.md §3.5; ValueError is shared/stats' StatsValueError).
export { StatsValueError } from '../stats/errors';

/** The dataset must not be published as it stands; the message starts with the refusal code (§3.5). */
export class PublishGateError extends Error {
  readonly pythonType = 'PublishGateError';
  /** The refusal code: `ungraded_rl_rows`, `no_mixed_groups` or (strict_hacks) `reward_hack`. */
  readonly code: string;
  constructor(message: string) {
    super(message);
    this.name = 'PublishGateError';
    this.code = message.split(':', 1)[0];
  }
}
