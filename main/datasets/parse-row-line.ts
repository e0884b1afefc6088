// One JSONL line -> a validated row v1, or the reason it is not one.
import { normalizeRow } from '../../shared/schema/import-shapes';
import { looksLikeValidRow } from '../../shared/schema/row-fast-check';
import { escapeControls } from '../../shared/text/escape-controls';
import { nestsTooDeep, tooDeepMessage } from '../../shared/text/json-depth';

type Obj = Record<string, unknown>;

/**
 * `refused`: the line is refused even where JSON that is not a row is tolerated (stats on a file): nesting
 * too deep, or a reward written as a string.
 */
export type ParsedLine = { ok: true; row: Obj; unchanged: boolean } | { ok: false; message: string; refused?: true };

/** The full row check (row-check.ts): null when the row is valid, else what is wrong with it. */
export type RowCheck = (row: Obj) => string | null;

/**
 * A reward written as a string ("1") is refused with what to write instead. The SDK's own row check
 * (validate(), sdk-semantics §1.7) refuses a reward that is not a number; only its statistics readers would
 * parse "1", and a file read by `stats` is checked here like an import, so both refuse it alike.
 */
function stringRewardProblem(row: Obj): string | null {
  const reward = row.reward;
  if (typeof reward !== 'string') return null;
  const shown = escapeControls(JSON.stringify(reward.length > 40 ? reward.slice(0, 40) + '...' : reward));
  const number = reward.trim() === '' ? Number.NaN : Number(reward);
  const instead = Number.isFinite(number) ? `write "reward": ${number}` : 'write a number such as "reward": 1 or "reward": 0, or "reward": null when ungraded';
  return `reward is the string ${shown}, and a reward must be a number (the SDK's validate() refuses a string); ${instead}`;
}

/** `fullCheck` runs only for rows the fast check says no to (it carries zod, which a worker loads late). */
export function parseRowLine(line: string, fullCheck: RowCheck): ParsedLine {
  // JSON.parse would read any depth, but the code after it (checks, export, JSON.stringify) recurses.
  if (nestsTooDeep(line)) return { ok: false, message: tooDeepMessage(), refused: true };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, message: `not valid JSON (${escapeControls((error as Error).message)})` };
  }
  try {
    const normalized = normalizeRow(value, true); // `value` was parsed just above: nobody else holds it
    if (!normalized.ok) return { ok: false, message: escapeControls(normalized.message) };
    const row = normalized.row;
    if (!looksLikeValidRow(row)) {
      const rewardProblem = stringRewardProblem(row);
      if (rewardProblem !== null) return { ok: false, message: rewardProblem, refused: true };
      const problem = fullCheck(row);
      if (problem !== null) return { ok: false, message: escapeControls(problem) };
    }
    return { ok: true, row, unchanged: normalized.shape === 'v1' };
  } catch (error) {
    // A stack overflow is this line's problem, never the whole import's (the depth scan should have caught it).
    if (error instanceof RangeError) return { ok: false, message: `cannot be read: ${escapeControls(error.message)}`, refused: true };
    throw error;
  }
}
