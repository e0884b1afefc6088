// What an LLM judge is shown of a row (sdk-semantics §5.3): a JSON record capped at 8000 characters, shrunk structurally.
type Obj = Record<string, unknown>;

export const JUDGE_PAYLOAD_CHARS = 8000;

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

function cut(value: unknown, max: number): unknown {
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}…` : value;
  if (value === undefined || value === null || typeof value !== 'object') return value;
  const text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max)}…` : value;
}

function stepView(step: unknown, max: number): Obj {
  if (!isObject(step)) return { text: cut(step, max) };
  const view: Obj = {};
  for (const key of ['user', 'tool', 'arguments', 'result', 'text']) if (step[key] !== undefined) view[key] = cut(step[key], max);
  return view;
}

/** The judge's JSON record of one row, never sliced mid-JSON: steps are cut, then thinned, then dropped. */
export function judgePayload(row: Obj): string {
  const steps = Array.isArray(row.steps) ? row.steps : [];
  const called = [...new Set(steps.filter((step) => isObject(step) && typeof step.tool === 'string').map((step) => (step as Obj).tool as string))];
  const declared = Array.isArray(row.tools)
    ? row.tools.map((tool) => (isObject(tool) && isObject(tool.function) ? tool.function.name : isObject(tool) ? tool.name : tool)).filter((name): name is string => typeof name === 'string')
    : [];
  const privileged = isObject(row.privileged) ? row.privileged : {};
  const base: Obj = {
    tools_called: called,
    ...(declared.length ? { tools_not_called: declared.filter((name) => !called.includes(name)) } : {}),
    situation: cut(row.prompt ?? '', 4000),
    ...(row.faults !== undefined ? { injected_faults: row.faults } : {}),
    final_text: cut(row.final_text ?? '', 2000),
    ...(privileged.reference !== undefined ? { judge_only: { reference: cut(privileged.reference, 2000) } } : {}),
  };
  for (const max of [800, 300, 80]) {
    const text = JSON.stringify({ ...base, steps: steps.map((step) => stepView(step, max)) });
    if (text.length <= JUDGE_PAYLOAD_CHARS) return text;
  }
  if (steps.length > 3) {
    const kept = [steps[0], { skipped_steps: steps.length - 3 }, ...steps.slice(-2)];
    const text = JSON.stringify({ ...base, steps: kept.map((step) => (isObject(step) && 'skipped_steps' in step ? step : stepView(step, 80))), payload_reduced: true });
    if (text.length <= JUDGE_PAYLOAD_CHARS) return text;
  }
  const text = JSON.stringify({ ...base, payload_reduced: true });
  if (text.length <= JUDGE_PAYLOAD_CHARS) return text;
  return JSON.stringify({ situation: cut(row.prompt ?? '', 2000), final_text: cut(row.final_text ?? '', 2000), payload_reduced: true });
}
