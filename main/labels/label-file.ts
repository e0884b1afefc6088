// A label file as the SDK takes it: JSONL records (one object a line), or one JSON {key: label} mapping, or a JSON
// list of records. Returns what attach_labels takes as `labels`; a line that is not JSON is refused by number.
import { ApiError } from '../../shared/api/define';

const RECORD_FIELDS = ['label', 'reward', 'gold_reward'];

/** A single JSON object is a {key: label} mapping unless it reads as one label record (it carries a label field). */
function isMapping(value: Record<string, unknown>): boolean {
  return !RECORD_FIELDS.some((field) => field in value);
}

export function parseLabelText(text: string, where: string): unknown {
  const body = text.replace(/^\uFEFF/, '').trim();
  if (body === '') throw new ApiError('bad_input', `${where} holds no labels (expected JSONL records or a {key: label} mapping)`, where);
  try {
    const whole = JSON.parse(body) as unknown;
    if (Array.isArray(whole)) return whole;
    if (whole && typeof whole === 'object' && isMapping(whole as Record<string, unknown>)) return whole;
    if (!body.includes('\n')) return [whole];
  } catch {
    // Not one JSON value: read it as JSONL below.
  }
  const records: unknown[] = [];
  body.split('\n').forEach((line, i) => {
    const trimmed = line.replace(/^\uFEFF/, '').trim();
    if (trimmed === '') return;
    try {
      records.push(JSON.parse(trimmed));
    } catch (error) {
      throw new ApiError('bad_input', `${where} line ${i + 1} is not JSON (${error instanceof Error ? error.message : String(error)}); nothing was imported`, `${where}:${i + 1}`);
    }
  });
  return records;
}
