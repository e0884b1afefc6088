// Conformance invokers for rubrics, Likert normalisation and pairwise judging under the SDK's names
// (test/fixtures/conformance/README.md lists each call and its result shape).
import { normalizeVerdict } from '../../shared/schema/judge-verdict';
import { judgePairs, parsePairwise, type JudgePairsOptions, type PairJudge } from '../../shared/judging/pairwise';
import { criterionFromDict, criterionSlug, criterionToDict, rubricChecklist, rubricFromDict, rubricToDict } from '../../shared/judging/rubric';
import { NO_RUBRIC, rubricFor, rubricJudgeResult } from '../../shared/judging/rubric-judge';
import { parseCriteriaReply, scoreRubric, scoreWithRubric, type CriterionResults } from '../../shared/judging/rubric-score';
import { bind } from './functions-bind';
import type { CaseInvoker } from './types';

type Obj = Record<string, unknown>;

const results = (value: unknown): CriterionResults => {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Obj;
  throw new Error('results must be an object of {criterion key: verdict}');
};

// The normaliser names types as JavaScript does (its judges are written in it); the SDK names Python's.
const PY_TYPE: Record<string, string> = { string: 'str', boolean: 'bool', null: 'NoneType', undefined: 'NoneType', array: 'list', object: 'dict' };
const pyTypeOf = (name: unknown, value: unknown): unknown =>
  typeof name !== 'string' ? name : name === 'number' ? (Number.isInteger(value) ? 'int' : 'float') : (PY_TYPE[name] ?? name);

/** The SDK's normalize_judge_result dict: reward, reason ("" when none), judge_status, judge_meta (markers inside). */
function sdkNormalized(raw: unknown, scale?: [number, number]): Obj {
  const v = normalizeVerdict(raw, scale);
  const meta: Obj = { ...(v.meta ?? {}) };
  for (const key of ['reward_type', 'returned_type']) if (key in meta) meta[key] = pyTypeOf(meta[key], raw);
  return { reward: v.reward, reason: v.reason ?? '', judge_status: v.status, judge_meta: meta };
}

export const rubricFunctions: Record<string, CaseInvoker> = {
  'Criterion.from_dict': async (call) => {
    const c = criterionFromDict(bind(['raw'], call).raw);
    return { result: { ...criterionToDict(c), slug: criterionSlug(c.title) } };
  },
  'Rubric.from_dict': async (call) => {
    const rubric = rubricFromDict(bind(['raw'], call).raw);
    return { result: rubricToDict(rubric), aux: { checklist: rubricChecklist(rubric) } };
  },
  'Rubric.score': async (call) => {
    const kw = bind(['rubric', 'results'], call);
    return { result: scoreRubric(rubricFromDict(kw.rubric), results(kw.results)) };
  },
  score_with_rubric: async (call) => {
    const kw = bind(['rubric', 'results'], call);
    return { result: scoreWithRubric(rubricFromDict(kw.rubric), results(kw.results), typeof kw.reason === 'string' ? kw.reason : '') };
  },
  parse_criteria_reply: async (call) => {
    const { results: parsed, reason } = parseCriteriaReply(bind(['text'], call).text);
    return { result: [parsed === null ? null : Object.fromEntries(parsed), reason] };
  },
  // The case's $judge stands in for the judge model: it takes the row and returns the model's reply text.
  rubric_judge: async (call, env) => {
    const kw = bind(['rows'], call);
    const model = typeof kw.judge === 'function' ? (kw.judge as (row: Obj) => Promise<unknown>) : env.judge;
    if (!model) throw new Error('rubric_judge: the case must name the judge model stub ($judge)');
    const fixed = kw.rubric === undefined || kw.rubric === null ? null : rubricFromDict(kw.rubric);
    const out: unknown[] = [];
    for (const row of kw.rows as Obj[]) {
      const rubric = rubricFor(row, fixed);
      out.push(rubric ? rubricJudgeResult(rubric, await model(row)) : NO_RUBRIC);
    }
    return { result: out };
  },
  normalize_judge_result: async (call) => {
    const kw = bind(['raw'], call);
    const scale = Array.isArray(kw.scale) ? (kw.scale as [number, number]) : undefined;
    return { result: sdkNormalized(kw.raw, scale) };
  },
  parse_pairwise: async (call) => {
    const { winner, reason } = parsePairwise(bind(['text'], call).text);
    return { result: [winner, reason] };
  },
  judge_pairs: async (call, env) => {
    const kw = bind(['pairs', 'judge'], call);
    const judge = (typeof kw.judge === 'function' ? kw.judge : env.judge) as PairJudge | undefined;
    if (!judge) throw new Error('judge_pairs: the case must name a pairwise judge ($judge)');
    const { pairs: _p, judge: _j, ...options } = kw;
    const { pairs, report } = await judgePairs(kw.pairs as unknown[], judge, { judge_name: judge.name, ...(options as JudgePairsOptions) });
    return { result: report, aux: { pairs: pairs.map((pair) => ({ pairwise: pair.pairwise, tie: pair.tie })) } };
  },
};
