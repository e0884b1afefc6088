// Scoring a rubric from one verdict per criterion (sdk-semantics §5.4, docs/judges-rubric-pairwise.md): verdict keys
// matched to criteria, the reward (hard rules, principles, pitfalls), the markers `rubric:<slug>`, and the judge
// model's reply read into verdicts.
import { isObject, pyStr, pyTruthy } from '../stats/keys';
import { pyRound } from '../stats/py-format';
import { orderedEntries, parseOrderedJson } from '../text/ordered-json';
import { criterionSlug, rubricVersion, type Rubric } from './rubric';

/**
 * Verdicts keyed as the judge gave them, in its order (a later key for the same criterion wins): entries, or an
 * object (in the order its JSON text wrote it when read by parseOrderedJson, as Python keeps it).
 */
export type CriterionResults = ReadonlyArray<readonly [string, unknown]> | Record<string, unknown>;

const entriesOf = (results: CriterionResults): Array<readonly [string, unknown]> =>
  Array.isArray(results) ? (results as Array<readonly [string, unknown]>) : orderedEntries(results as Record<string, unknown>);

/** The SDK's _truthy: a bool as it is, a number when above 0, else the word true / yes / met / 1 / pass. */
export function criterionTruthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value > 0;
  return ['true', 'yes', 'met', '1', 'pass'].includes(pyStr(value).trim().toLowerCase());
}

/**
 * Verdicts by criterion slug. A key is the item's number (1-based, "2." and "2)" too), its title or slug, or a
 * paraphrase: a key whose slug starts one criterion's slug, starts with it, or contains it, when only one does.
 */
export function resolveCriteria(rubric: Rubric, results: CriterionResults): Map<string, unknown> {
  const slugs = rubric.criteria.map((c) => criterionSlug(c.title));
  const byKey = new Map<string, unknown>();
  for (const [key, value] of entriesOf(results)) {
    const keyText = pyStr(key).trim();
    const number = keyText.replace(/[.)]+$/, '');
    if (/^[0-9]+$/.test(number) && Number(number) >= 1 && Number(number) <= slugs.length) {
      byKey.set(slugs[Number(number) - 1], value);
      continue;
    }
    const slug = criterionSlug(keyText);
    if (slugs.includes(slug)) {
      byKey.set(slug, value);
      continue;
    }
    const matches = slugs.filter((s) => s.startsWith(slug) || slug.startsWith(s) || slug.includes(s));
    if (matches.length === 1) byKey.set(matches[0], value);
  }
  return byKey;
}

export interface RubricScore {
  reward: number;
  met: string[];
  missed: string[];
  hard_failed: string[];
  pitfalls_hit: string[];
  unanswered: string[];
}

/**
 * Rubric.score: a missed hard rule is 0; else (met principle weight - exhibited pitfall weight) / principle weight,
 * or with pitfalls only 1 - the hit share, or 1; clamped to [0, 1] and rounded to 4 places. A verdict counts when
 * Python would call it true (the SDK reads the raw value here, and criterionTruthy only for the markers).
 * Criteria the judge left out are neither met nor exhibited, and listed.
 */
export function scoreRubric(rubric: Rubric, results: CriterionResults): RubricScore {
  const byKey = resolveCriteria(rubric, results);
  const out: RubricScore = { reward: 0, met: [], missed: [], hard_failed: [], pitfalls_hit: [], unanswered: [] };
  let principleTotal = 0;
  let principleMet = 0;
  let pitfallTotal = 0;
  let pitfallHit = 0;
  for (const c of rubric.criteria) {
    const slug = criterionSlug(c.title);
    const value = pyTruthy(byKey.get(slug) ?? false);
    if (!byKey.has(slug)) out.unanswered.push(c.title);
    if (c.kind === 'hard') (value ? out.met : out.hard_failed).push(c.title);
    else if (c.kind === 'principle') {
      principleTotal += c.weight;
      if (value) {
        principleMet += c.weight;
        out.met.push(c.title);
      } else out.missed.push(c.title);
    } else {
      pitfallTotal += c.weight;
      if (value) {
        pitfallHit += c.weight;
        out.pitfalls_hit.push(c.title);
      }
    }
  }
  let reward: number;
  if (out.hard_failed.length > 0) reward = 0;
  else if (principleTotal > 0) reward = (principleMet - pitfallHit) / principleTotal;
  else if (pitfallTotal > 0) reward = 1 - pitfallHit / pitfallTotal;
  else reward = 1;
  out.reward = pyRound(Math.max(0, Math.min(1, reward)), 4);
  return out;
}

export interface RubricVerdict {
  reward: number;
  reason: string;
  markers: Record<string, number>;
  criteria: Record<string, boolean>;
  rubric_version: string;
  hard_failed: string[];
  missed: string[];
  pitfalls_hit: string[];
  unanswered: string[];
  n_unanswered: number;
}

/**
 * score_with_rubric: a judge's result from per-criterion verdicts. Every criterion is a marker `rubric:<slug>`,
 * 1 the good outcome: 1.0 met (hard rule, principle) or clean (pitfall), 0.0 missed or exhibited.
 */
export function scoreWithRubric(rubric: Rubric, results: CriterionResults, reason = ''): RubricVerdict {
  const breakdown = scoreRubric(rubric, results);
  const bySlug = resolveCriteria(rubric, results);
  const markers: Record<string, number> = {};
  for (const c of rubric.criteria) {
    const slug = criterionSlug(c.title);
    const value = bySlug.has(slug) ? criterionTruthy(bySlug.get(slug)) : false;
    markers[`rubric:${slug}`] = c.kind === 'pitfall' ? (value ? 0 : 1) : value ? 1 : 0;
  }
  const criteria: Record<string, boolean> = {};
  for (const [key, value] of entriesOf(results)) criteria[pyStr(key)] = criterionTruthy(value);
  return {
    reward: breakdown.reward,
    reason,
    markers,
    criteria,
    rubric_version: rubricVersion(rubric),
    hard_failed: breakdown.hard_failed,
    missed: breakdown.missed,
    pitfalls_hit: breakdown.pitfalls_hit,
    unanswered: breakdown.unanswered,
    n_unanswered: breakdown.unanswered.length,
  };
}

/**
 * parse_criteria_reply: the text from its first "{" to its last "}" as JSON; `criteria` is {key: verdict} or a
 * list of {title, met | value}. Null results when there is no such object (the row then stays ungraded).
 */
export function parseCriteriaReply(reply: unknown): { results: Array<[string, boolean]> | null; reason: string } {
  const raw = (pyTruthy(reply) ? pyStr(reply) : '').trim();
  const start = raw.indexOf('{');
  const end = raw.lastIndexOf('}');
  if (start === -1 || end <= start) return { results: null, reason: '' };
  let parsed: unknown;
  try {
    parsed = parseOrderedJson(raw.slice(start, end + 1));
  } catch {
    return { results: null, reason: '' };
  }
  if (!isObject(parsed)) return { results: null, reason: '' };
  const reason = (pyTruthy(parsed.reason) ? pyStr(parsed.reason) : '').trim();
  const crit = parsed.criteria;
  const results: Array<[string, boolean]> = [];
  const put = (key: string, value: boolean) => {
    const at = results.findIndex(([k]) => k === key);
    if (at >= 0) results[at] = [key, value];
    else results.push([key, value]);
  };
  if (isObject(crit)) for (const [key, value] of orderedEntries(crit)) put(key, criterionTruthy(value));
  else if (Array.isArray(crit)) {
    for (const item of crit) {
      if (isObject(item) && pyTruthy(item.title)) put(pyStr(item.title), criterionTruthy(item.met !== undefined ? item.met : item.value));
    }
  } else return { results: null, reason };
  return { results, reason };
}
