// The one-line verdict people and the site read (platform-api.md §5.1 "Rendering the one line"), compared exactly.
import { fmtG, fmtSg, str } from './format';
import type { Verdict } from './verdict';

/** What the number rests on: "graded by a program", or the judge agreement (on humanN), then n. */
function restsOn(v: Verdict): string[] {
  const rests: string[] = [];
  if (v.graded_by === 'program') rests.push('graded by a program');
  else if (v.judge_agreement !== null) rests.push(`judge agreement ${fmtG(v.judge_agreement)}${v.judge_human_n ? ` on ${str(v.judge_human_n)}` : ''}`);
  if (v.n !== null) rests.push(`n=${str(v.n)}`);
  return rests;
}

/** Why a claim is unproven: n missing or small, the judge unmeasured or weak, the reward is the judge, contamination. */
function gaps(v: Verdict): string[] {
  const out: string[] = [];
  if (v.n === null) out.push('n not declared');
  else if (v.n < 50) out.push(`n=${str(v.n)} under 50`);
  if (v.graded_by !== 'program') {
    if (v.judge_agreement === null) out.push('judge agreement unmeasured');
    else if (v.judge_agreement < 0.8) out.push(`judge agreement ${fmtG(v.judge_agreement)} under 0.8`);
  }
  if (v.reward_is_judge) out.push('the training reward is the judge');
  if (v.contamination) out.push(`contamination ${str(v.contamination)}`);
  return out;
}

export function verdictLine(v: Verdict): string {
  const b = v.behavior || '?';
  const C = v.candidate;
  const S = v.serving;
  if (v.delta === null) {
    if (S && !C) return `${b}: ${S} is serving; no newer candidate yet`;
    return `${b}: no candidate scored against ${S || 'a served version'} yet`;
  }
  if (C === S) return `${b}: ${C} is the served version; no candidate to compare`;
  const delta = v.delta;
  const signed = fmtSg(delta);
  const floor = v.noise_floor;
  let claim = false;
  let head: string;
  if (v.excludes_zero === null) {
    head = `${b}: ${C} scored ${signed} vs ${S}, no interval on one side, not a result (pass ci= on both)`;
  } else if (!v.excludes_zero) {
    head = `${b}: ${C} about the same as ${S} (${signed}, interval includes zero)`;
  } else if (floor !== null && Math.abs(delta) <= floor) {
    head = `${b}: ${C} scored ${signed} vs ${S}, interval excludes zero but inside the eval's re-run band (${fmtG(floor)}), not a result`;
  } else {
    claim = true;
    const word = delta > 0 ? 'beats' : 'trails';
    const note = floor !== null ? `, clears the noise floor of ${fmtG(floor)}` : ', no noise floor declared';
    head = `${b}: ${C} ${word} ${S} by ${fmtG(Math.abs(delta))} (interval excludes zero${note})`;
    if (delta > 0 && v.replicated.length) head += `; moved, replicated on ${v.replicated.join(', ')}`;
  }
  if (v.regressions) {
    head += `; ${v.regressions} behavior${v.regressions === 1 ? '' : 's'} lower (point estimates, no interval on that check)`;
  }
  const rests = restsOn(v);
  if (rests.length) head += `; ${rests.join(', ')}`;
  const missing = gaps(v);
  if (claim && missing.length) head = `unproven: ${head} (${missing.join('; ')})`;
  return head;
}
