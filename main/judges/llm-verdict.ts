// Reads an LLM judge's reply. It is untrusted: the last complete JSON object must be exactly the verdict shape asked for.
import { z } from '../../shared/schema/zod';

export const passFailVerdict = z.strictObject({ reason: z.string().max(4000).optional(), verdict: z.enum(['pass', 'fail']) });
export const likertVerdict = z.strictObject({ reason: z.string().max(4000).optional(), score: z.int().min(1).max(5) });

/** The same shapes as JSON Schema, sent as response_format so servers that can constrain decoding do. */
export function verdictResponseFormat(likert: boolean): Record<string, unknown> {
  const properties = likert ? { reason: { type: 'string' }, score: { type: 'integer', enum: [1, 2, 3, 4, 5] } } : { reason: { type: 'string' }, verdict: { type: 'string', enum: ['pass', 'fail'] } };
  const schema = { type: 'object', properties, required: ['reason', likert ? 'score' : 'verdict'], additionalProperties: false };
  return { type: 'json_schema', json_schema: { name: likert ? 'likert_verdict' : 'pass_fail_verdict', strict: true, schema } };
}

export type ParsedVerdict = { ok: true; value: { verdict?: 'pass' | 'fail'; score?: number; reason?: string } } | { ok: false; problem: string };

/** The spans of the top-level {...} objects in text, strings and escapes respected. */
export function topLevelObjects(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"' && depth > 0) inString = true;
    else if (ch === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === '}' && depth > 0) {
      depth--;
      if (depth === 0) spans.push(text.slice(start, i + 1));
    }
  }
  return spans;
}

export function parseLlmVerdict(reply: string, likert: boolean): ParsedVerdict {
  const text = reply.replace(/<think>[\s\S]*?(<\/think>|$)/g, '').replace(/```[a-zA-Z]*\n?/g, '');
  const spans = topLevelObjects(text);
  if (spans.length === 0) return { ok: false, problem: 'the reply holds no complete JSON object' };
  const span = spans[spans.length - 1];
  for (const key of ['verdict', 'score', 'reason']) {
    if ((span.match(new RegExp(`(?<!\\\\)"${key}"\\s*:`, 'g')) ?? []).length > 1) return { ok: false, problem: `the verdict repeats the key "${key}"` };
  }
  let json: unknown;
  try {
    json = JSON.parse(span);
  } catch (error) {
    return { ok: false, problem: `the verdict is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = (likert ? likertVerdict : passFailVerdict).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `the verdict does not fit ${likert ? '{"reason", "score": 1..5}' : '{"reason", "verdict": "pass"|"fail"}'}: ${issue.path.join('.') || 'object'}: ${issue.message}` };
  }
  return { ok: true, value: parsed.data };
}
