// A behaviour as the SDK re-serialises it for PUT /agents/{id}/behaviors/{name} (platform-api.md §4.1, §4.2 Behavior).
import { StatsValueError } from '../stats/errors';
import type { BehaviorWire, JudgeWire } from './types';

export const BEHAVIOR_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const BEHAVIOR_NAME_MAX = 64;

/** Refuses a behaviour name the platform refuses (§4.2), saying how to rename it. */
export function checkBehaviorName(name: unknown, what = 'behavior'): string {
  const text = typeof name === 'string' ? name : '';
  if (!text || [...text].length > BEHAVIOR_NAME_MAX || !BEHAVIOR_NAME_PATTERN.test(text)) {
    const suggestion = text.trim().replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._-]+/, '').slice(0, BEHAVIOR_NAME_MAX) || 'policy';
    throw new StatsValueError(
      `${what} name ${JSON.stringify(name)} is not a platform behaviour name: 1 to ${BEHAVIOR_NAME_MAX} characters, letters, digits, ` +
        `'.', '_' or '-', starting with a letter or digit. Rename it (${JSON.stringify(suggestion)}, not "refund policy").`,
    );
  }
  return text;
}

const defined = (entries: Array<[string, unknown]>): Record<string, unknown> =>
  Object.fromEntries(entries.filter(([, v]) => v !== null && v !== undefined));

/** Judge wire: `verified` defaults to false, so it is always on the wire. */
export function judgeWire(j: JudgeWire): Record<string, unknown> {
  return defined([['name', j.name], ['agreement', j.agreement], ['humanN', j.humanN], ['lengthBias', j.lengthBias], ['verified', j.verified ?? false]]);
}

/** The behaviour's fields in the SDK's field order, nulls and unknown keys left out; `name` travels in the path. */
export function behaviorBody(b: BehaviorWire): Record<string, unknown> {
  return defined([
    ['testVersion', b.testVersion],
    ['n', b.n],
    ['judge', b.judge ? judgeWire(b.judge) : null],
    ['noiseFloor', b.noiseFloor],
    ['contamination', b.contamination],
    ['rewardIsJudge', b.rewardIsJudge],
    ['gradedBy', b.gradedBy],
    ['description', b.description],
    ['rubric', b.rubric],
  ]);
}
