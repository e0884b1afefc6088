// `--judge FILE.json`: the built-in rules judge (contains, regex, tool_called, json_schema, all/any/not).
import fs from 'node:fs';
import path from 'node:path';
import { parseJudgeRules, type JudgeRule, type JudgeRulesFile } from '../../shared/schema/judge-rules';
import { checkJsonSchema, deepEqual } from './json-schema-check';
import type { JudgeVerdict, RowJudge } from './judge-types';
import { batchOneByOne } from './micro-batch';
import { ruleRegexMatches } from './rule-regex';
import { errorText, failed } from './normalize-verdict';

type Obj = Record<string, unknown>;
interface Outcome {
  pass: boolean;
  reason: string;
}

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

function fieldValue(row: Obj, field: string): unknown {
  let value: unknown = row;
  for (const part of field.split('.')) {
    if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)];
    else if (isObject(value)) value = value[part];
    else return undefined;
  }
  return value;
}

function fieldText(row: Obj, field: string): string {
  const value = fieldValue(row, field);
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function argumentMatches(actual: unknown, expected: unknown): boolean {
  if (isObject(expected) && typeof expected.regex === 'string' && Object.keys(expected).length === 1) {
    return ruleRegexMatches(expected.regex, undefined, typeof actual === 'string' ? actual : (JSON.stringify(actual) ?? ''));
  }
  return deepEqual(actual, expected);
}

function stripFences(text: string): string {
  const fenced = text.trim().match(/^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/);
  return fenced ? fenced[1] : text.trim();
}

export function evaluateRule(rule: JudgeRule, row: Obj): Outcome {
  if ('all' in rule) {
    const held: string[] = [];
    for (const inner of rule.all) {
      const outcome = evaluateRule(inner, row);
      if (!outcome.pass) return outcome;
      held.push(outcome.reason);
    }
    return { pass: true, reason: held.join('; ') };
  }
  if ('any' in rule) {
    const outcomes = rule.any.map((inner) => evaluateRule(inner, row));
    const hit = outcomes.find((outcome) => outcome.pass);
    return hit ?? { pass: false, reason: `none held: ${outcomes.map((outcome) => outcome.reason).join('; ')}` };
  }
  if ('not' in rule) {
    const inner = evaluateRule(rule.not, row);
    return { pass: !inner.pass, reason: `not (${inner.reason})` };
  }
  if ('contains' in rule) {
    const field = rule.field ?? 'final_text';
    const text = fieldText(row, field);
    const pass = rule.case_sensitive ? text.includes(rule.contains) : text.toLowerCase().includes(rule.contains.toLowerCase());
    return { pass, reason: `${field} ${pass ? 'contains' : 'does not contain'} ${JSON.stringify(rule.contains)}` };
  }
  if ('regex' in rule) {
    const field = rule.field ?? 'final_text';
    const pass = ruleRegexMatches(rule.regex, rule.flags, fieldText(row, field));
    return { pass, reason: `${field} ${pass ? 'matches' : 'does not match'} /${rule.regex}/${rule.flags ?? ''}` };
  }
  if ('tool_called' in rule) {
    const steps = Array.isArray(row.steps) ? row.steps : [];
    const wanted = Object.entries(rule.arguments ?? {});
    const calls = steps.filter((step) => isObject(step) && step.tool === rule.tool_called);
    const matching = calls.filter((step) => wanted.every(([key, expected]) => isObject(step.arguments) && argumentMatches(step.arguments[key], expected)));
    const need = rule.min_times ?? 1;
    const pass = matching.length >= need;
    const withArgs = wanted.length ? ` with ${JSON.stringify(rule.arguments)}` : '';
    const count = need > 1 ? ` at least ${need} times` : '';
    return { pass, reason: pass ? `${rule.tool_called} was called${withArgs}${count}` : `${rule.tool_called} was not called${withArgs}${count} (${calls.length} call${calls.length === 1 ? '' : 's'} to it)` };
  }
  const field = rule.field ?? 'final_text';
  let value: unknown;
  try {
    value = JSON.parse(stripFences(fieldText(row, field)));
  } catch {
    return { pass: false, reason: `${field} is not JSON` };
  }
  const problem = checkJsonSchema(value, rule.json_schema);
  return { pass: problem === null, reason: problem ? `${field} breaks the JSON schema at ${problem}` : `${field} fits the JSON schema` };
}

export function createRulesJudge(rules: JudgeRulesFile, name: string): RowJudge {
  const judge = async (row: Obj): Promise<JudgeVerdict> => {
    try {
      const outcome = evaluateRule(rules.rule, row);
      const verdict: JudgeVerdict = { reward: outcome.pass ? 1 : 0, judge_status: 'ok', judge_name: name, reason: outcome.reason, judge_meta: { scorer_kind: 'rule' } };
      if (rules.markers) {
        verdict.markers = Object.fromEntries(Object.entries(rules.markers).map(([marker, rule]) => [marker, evaluateRule(rule, row).pass ? 1 : 0]));
      }
      return verdict;
    } catch (error) {
      return failed(name, 'error', { error: errorText(error), scorer_kind: 'rule' });
    }
  };
  return { name, judge, judgeBatch: batchOneByOne(judge), close: async () => undefined };
}

/** Reads and checks a rules file; a bad one is refused with every problem and its path inside the file. */
export function loadRulesJudge(file: string): RowJudge {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`could not read judge rules ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`judge rules ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = parseJudgeRules(json);
  if (!parsed.ok) throw new Error(`judge rules ${file} refused:\n${parsed.errors.map((error) => `  ${file}: ${error}`).join('\n')}`);
  return createRulesJudge(parsed.rules, parsed.rules.name ?? path.basename(file).replace(/\.json$/i, ''));
}
