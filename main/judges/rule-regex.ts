// Rules-file regular expressions, matched with RE2 (re2js): linear time, so no pattern can hang the engine.
import type { RE2JS } from 're2js';
import { compileRuleRegex } from '../../shared/schema/judge-rules';

const compiled = new Map<string, RE2JS>();

/** RE2 (linear time: no pattern can hang the engine), compiled once per pattern and flags. */
export function ruleRegexMatches(pattern: string, flags: string | undefined, text: string): boolean {
  const key = `${flags ?? ''}/${pattern}`;
  let regex = compiled.get(key);
  if (!regex) {
    regex = compileRuleRegex(pattern, flags);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(key, regex);
  }
  return regex.matcher(text).find();
}
