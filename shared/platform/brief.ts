// The brief: what happened, what it means, what to do next (platform-api.md §5.3; tracked.brief(), the Runs page top).
import { applyDeclared } from './declared';
import { evalChecks } from './eval-checks';
import { one, str } from './format';
import { liveRuns, scoresFor } from './newest-scores';
import { readableSteps, type Step } from './readable';
import { resolveVerdict, type Verdict } from './verdict';
import type { CheckKey } from './eval-check-texts';
import type { BehaviorWire, DashboardWire, RunRow, VersionScore } from './types';

export type { Step } from './readable';

export interface Brief {
  agent: string;
  url: string;
  happened: string[];
  means: string;
  next: Step[];
  scored: number;
  readable: Step[];
}

export const RUNS_PAGE_URL = 'https://while.ai/platform/runs?agent=';
const BRIEF_ORDER: CheckKey[] = ['canfail', 'size', 'frozen', 'judge', 'noise', 'contamination', 'reward'];
const BRIEF_MAX_STEPS = 3;
const MIN_N = 50;
const SATURATED = 95;

const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
const stamp = (r: RunRow) => String(r.updatedAt || r.createdAt || '');
const top = (vs: VersionScore[]) => vs.reduce((a, v) => (v.score > a.score ? v : a));
const low = (vs: VersionScore[]) => vs.reduce((a, v) => (v.score < a.score ? v : a));

function behaviorLine(b: BehaviorWire, versions: VersionScore[]): string {
  if (versions.length > 1) {
    const hi = top(versions);
    const lo = low(versions);
    return `${b.name}: ${versions.length} versions scored, ${hi.v} highest at ${one(hi.score)}, ${lo.v} lowest at ${one(lo.score)}.`;
  }
  const v = versions[0];
  const n = v.n ?? b.n ?? null;
  const what = n !== null && v.score >= 99.95 ? `passed all ${str(n)} asks` : n !== null ? `scored ${one(v.score)} of 100 on ${str(n)} asks` : `scored ${one(v.score)} of 100`;
  return `${b.name}: ${v.v} ${what}${v.ci ? ` (±${one(v.ci)})` : ''}.`;
}

interface Reading {
  saturated: { n: number | null } | null;
  single: boolean;
  smallest: number | null;
}

function means(vd: Verdict, dash: DashboardWire, r: Reading): string {
  if (vd.delta !== null && vd.candidate && vd.candidate !== vd.serving) {
    const serving = vd.serving || 'nothing serving';
    if (vd.excludes_zero === null) return `${vd.candidate} vs ${serving} cannot be called: one side has no interval, so the gap of ${one(vd.delta)} is not a result.`;
    const word = !vd.excludes_zero ? 'about the same as' : vd.delta > 0 ? 'better than' : 'worse than';
    return `${vd.candidate} is ${word} ${serving} by ${one(Math.abs(vd.delta))} points, ${vd.excludes_zero ? 'outside' : 'inside'} the noise.`;
  }
  if (r.saturated) {
    const on = r.saturated.n !== null ? `${str(r.saturated.n)} asks` : 'this set';
    return `A perfect score on ${on} says the asks are too easy, not that the agent is good. Any change to the agent would show as no change here.`;
  }
  if (r.single) return 'One version scored once. Nothing to compare yet: the next scored version gets a verdict against this one.';
  if (r.smallest !== null && r.smallest < MIN_N) return `${str(r.smallest)} asks give an interval too wide to see a gain of a few points; the versions cannot be told apart yet.`;
  const servingNow = vd.serving || dash.agent?.serving;
  if (servingNow) return `${servingNow} is the served version; each other version scored on the same set gets a verdict against it.`;
  return 'Versions are scored on the same set; promote one to get a verdict against it.';
}

function nextSteps(failed: Array<{ key: CheckKey; step: Step }>, vd: Verdict): Step[] {
  const ordered: Step[] = [];
  for (const key of BRIEF_ORDER) {
    const hit = failed.find((f) => f.key === key);
    if (hit) ordered.push(hit.step);
  }
  if (!ordered.length && vd.excludes_zero && (vd.delta ?? 0) > 0) ordered.push({ say: `promote ${vd.candidate}`, cmd: `tracked.promote("${vd.candidate}")` });
  if (!ordered.length) ordered.push({ say: 'score the next version on the same set', cmd: 'tracked.run(version="v2").score(...)' });
  return ordered.slice(0, BRIEF_MAX_STEPS);
}

/** `tracked.brief()`: resolves the verdict first, then reads the runs the way the Runs page does. */
export function brief(given: DashboardWire, list: readonly BehaviorWire[], runs: readonly RunRow[], options: { declared?: readonly BehaviorWire[] } = {}): Brief {
  const { dash, behaviors } = applyDeclared(given, list, options.declared);
  const agent = dash.agent.id;
  const url = `${RUNS_PAGE_URL}${agent}`;
  const live = liveRuns(runs);
  const scored = live.filter((r) => Array.isArray(r.evals) && r.evals.length);
  const trained = live.filter((r) => r.method && r.method !== 'eval');
  const readable = readableSteps(behaviors, live, dash.agent.model ?? null);
  if (!scored.length) {
    return {
      agent, url, scored: 0, readable,
      happened: [live.length ? `${plural(live.length, 'run')} posted, none scored yet.` : 'No runs posted yet.'],
      means: 'There is nothing to read until a version is scored on a held-out test.',
      next: [{ say: 'score one version', cmd: 'run = tracked.run(version="v1"); run.score("behavior", points, ci=half_width, n=asks); run.finish()' }],
    };
  }
  const vd = resolveVerdict(dash, behaviors, runs, { declared: options.declared });
  const latest = scored.reduce((a, r) => (stamp(r) > stamp(a) ? r : a));
  const when = stamp(latest).slice(0, 10);
  const happened = [`${plural(scored.length, 'scored run')}${trained.length ? `, ${plural(trained.length, 'training run')}` : ', no training yet'}${when ? `, latest ${when}` : ''}.`];
  const reading: Reading = { saturated: null, single: true, smallest: null };
  const failed: Array<{ key: CheckKey; step: Step }> = [];
  for (const b of behaviors) {
    const versions = scoresFor(live, b.name);
    if (!versions.length) continue;
    if (versions.length > 1) reading.single = false;
    for (const v of versions) if (v.n !== null && v.n !== undefined) reading.smallest = reading.smallest === null ? v.n : Math.min(reading.smallest, v.n);
    happened.push(behaviorLine(b, versions));
    if (reading.saturated === null && versions.every((v) => v.score >= SATURATED)) reading.saturated = { n: top(versions).n ?? b.n ?? null };
    for (const c of evalChecks(b, versions).checks) {
      if (c.ok === false) failed.push({ key: c.key, step: { say: `${c.action} (${b.name}: ${c.why})`, cmd: c.fix } });
    }
  }
  return { agent, url, happened, means: means(vd, dash, reading), next: nextSteps(failed, vd), scored: scored.length, readable };
}
