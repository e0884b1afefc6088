// What a person cannot read yet on the Runs page (platform-api.md §5.3 step 7; the site's lib/readable.ts).
import { pyTruthy } from '../stats/keys';
import { one } from './format';
import type { BehaviorWire, EvalWire, RunRow } from './types';

export interface Step {
  say: string;
  cmd: string;
}

const READABLE_MAX_PER_KEY = 3;
/** A version name that carries settings instead of what changed (dapo-lr5e-05-s17-180st, sft-v1-s1). */
const SETTINGS_NAME = /(\d+e-?\d+|(^|[-_])s\d{1,3}([-_]|$)|\d+st([-_]|$)|(^|[-_])lr\d)/i;

/** A run says what it changed: base, a pinned prompt/tools/model, a training method, optimizer settings, a train set, a note. */
export function saysWhatChanged(run: RunRow, agentModel: string | null): boolean {
  if (run.version === 'base') return true;
  const rec = run.record ?? {};
  const pins = rec.provenance?.pins ?? {};
  if (pins.prompt || pins.tools || (pins.model && pins.model !== agentModel)) return true;
  if (![null, undefined, '', 'eval', 'none'].includes(run.method as string | null | undefined)) return true;
  if (rec.optimizer && Object.keys(rec.optimizer).length) return true;
  if (typeof rec.data?.train === 'string') return true;
  return String(run.notes ?? '').trim() !== '';
}

const createdAt = (r: RunRow) => String(r.createdAt || '');

function silentRunSteps(live: readonly RunRow[], agentModel: string | null): Step[] {
  const silent = live.filter((r) => !saysWhatChanged(r, agentModel)).sort((a, b) => (createdAt(a) < createdAt(b) ? 1 : createdAt(a) > createdAt(b) ? -1 : 0));
  return silent.slice(0, READABLE_MAX_PER_KEY).map((r, i) => {
    const more = i === READABLE_MAX_PER_KEY - 1 && silent.length > READABLE_MAX_PER_KEY ? ` (and ${silent.length - READABLE_MAX_PER_KEY} more)` : '';
    return { say: `say what ${r.version} changed${more}`, cmd: `tracked.open("${r.id}").note("what changed, in one line a colleague would write")` };
  });
}

function rubricStep(behaviors: readonly BehaviorWire[]): Step[] {
  const none = behaviors.filter((b) => !b.rubric);
  if (!none.length) return [];
  const say = none.length === 1 ? `write down how ${none[0].name} is judged` : `write down how each test is judged: ${none.map((b) => b.name).join(', ')}`;
  return [{ say, cmd: `tracked.behavior("${none[0].name}", rubric="what passes, what fails, the edge cases")` }];
}

function gradedRowsStep(behaviors: readonly BehaviorWire[], live: readonly RunRow[]): Step[] {
  const missing: Array<{ name: string; run: RunRow; e: EvalWire }> = [];
  for (const b of behaviors) {
    const scored = live.flatMap((run) => (run.evals ?? []).filter((e) => e && e.behavior === b.name).map((e) => ({ run, e })));
    if (!scored.length || scored.some(({ e }) => pyTruthy(e.examples))) continue;
    const when = (x: { run: RunRow; e: EvalWire }) => String(x.e.createdAt || x.run.createdAt || '');
    const newest = scored.reduce((best, x) => (when(x) > when(best) ? x : best));
    missing.push({ name: b.name, ...newest });
  }
  if (!missing.length) return [];
  missing.sort((a, b) => Number(a.e.score ?? 0) - Number(b.e.score ?? 0)); // the weakest test first
  const first = missing[0];
  let args = one(Number(first.e.score ?? 0));
  if (first.e.ci !== null && first.e.ci !== undefined) args += `, ci=${first.e.ci}`;
  if (first.e.n !== null && first.e.n !== undefined) args += `, n=${first.e.n}`;
  const say = missing.length === 1 ? `show the graded rows behind ${first.name}` : `show the graded rows behind each score: ${missing.map((m) => m.name).join(', ')}`;
  return [{ say, cmd: `tracked.open("${first.run.id}").score("${first.name}", ${args}, examples=[Example(prompt=, reply=, ok=, why=), ...])` }];
}

function settingsNameStep(live: readonly RunRow[]): Step[] {
  const named = live.filter((r) => SETTINGS_NAME.test(String(r.version ?? '')));
  if (!named.length) return [];
  return [{
    say: `name iterations by what changed, not by settings (${named.length} of ${live.length} read like ${named[0].version})`,
    cmd: 'tracked.run(version="longer-training", record={"optimizer": {"lr": 5e-5, "seed": 17, "steps": 180}})',
  }];
}

/** The steps, in the site's order: silent runs, missing rubrics, scores without rows, settings-like names. */
export function readableSteps(behaviors: readonly BehaviorWire[], live: readonly RunRow[], agentModel: string | null): Step[] {
  return [...silentRunSteps(live, agentModel), ...rubricStep(behaviors), ...gradedRowsStep(behaviors, live), ...settingsNameStep(live)];
}
