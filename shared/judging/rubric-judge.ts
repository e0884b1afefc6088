// What rubric_judge makes of one row and its judge model's reply (sdk-semantics §5.4): the row's rubric (the fixed
// one, else privileged.rubric), the message the model is shown, and its reply read into the judge's result. The
// engine's rubric judge (main/judges/rubric-judge.ts) asks the model in between; the conformance binding stubs it.
import { rubricChecklist, rubricOfRow, type Rubric } from './rubric';
import { parseCriteriaReply, scoreWithRubric, type RubricVerdict } from './rubric-score';

type Obj = Record<string, unknown>;

/** RUBRIC_JUDGE_MAX_TOKENS = 400: a verdict per criterion and one sentence of reason (sdk-semantics §5.4). */
export const RUBRIC_JUDGE_MAX_TOKENS = 400;

/**
 * The judge's instructions, in the desk's words: one true/false per numbered item from the record alone; a pitfall
 * is true when the reply shows the mistake; an announced tool call is not a call (tools_called is the fact);
 * length counts for nothing; one JSON object back.
 */
export const RUBRIC_JUDGE_SYSTEM = [
  'You check one reply of an AI agent against a numbered rubric. The reply is given as a JSON record of what the agent did: its tool calls with their results, and its final message.',
  'Decide every item true or false from that record alone. A hard rule or a principle is true when the reply meets it; a pitfall is true when the reply makes that mistake.',
  'Something the tools never returned meets nothing. tools_called lists the tools that really ran (each has a step with a result) and tools_not_called the ones that did not: saying that a tool will be, is being or was called is not a call, so an item about using a tool is met only when the tool is in tools_called, and an item about not using one only when it is in tools_not_called.',
  'How long the reply is must not change any item. Answer every item by its number.',
  'Reply with a single JSON object and nothing else: {"criteria": {"1": true or false, "2": ...}, "reason": "<one sentence>"}.',
].join(' ');

/** The rubric a row is judged against: the judge's fixed one, else the row's own; null when neither is there. */
export function rubricFor(row: Obj, fixed: Rubric | null): Rubric | null {
  return fixed ?? rubricOfRow(row);
}

/** The user message: {"rubric": the checklist, "reply": the row's judge record (a JSON text)}. */
export function rubricJudgeMessage(rubric: Rubric, record: string): string {
  return `{"rubric": ${JSON.stringify(rubricChecklist(rubric))}, "reply": ${record}}`;
}

export type RubricJudgeResult = RubricVerdict | { reward: null; reason: string; rubric_version?: null };

/** No rubric for the row: it stays ungraded (a reward of null, never a zero). */
export const NO_RUBRIC: RubricJudgeResult = { reward: null, reason: 'no rubric on the row', rubric_version: null };

/** The judge's result from the model's reply text: the score and markers, or no reward when it holds no criteria. */
export function rubricJudgeResult(rubric: Rubric, reply: unknown): RubricJudgeResult {
  const { results, reason } = parseCriteriaReply(reply);
  if (results === null) return { reward: null, reason: 'the judge\'s reply held no criteria object' };
  return scoreWithRubric(rubric, results, reason);
}
