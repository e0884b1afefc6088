// Rubrics as data (sdk-semantics §5.4, docs/judges-rubric-pairwise.md): criteria of three kinds, read from the SDK's
// dict or list shape (or Lambert's category prefixes), each with a slug, and a rubric version that is a content hash.
import { sha256Hex } from '../stats/hash';
import { pyFloatRepr, pyG } from '../stats/py-format';
import { pyFloat } from '../stats/readers';
import { isObject, pyStr, pyTruthy } from '../stats/keys';
import { pyJsonString } from '../platform/canonical-json';

export type CriterionKind = 'hard' | 'principle' | 'pitfall';
export const CRITERION_KINDS: readonly CriterionKind[] = ['hard', 'principle', 'pitfall'];

export interface Criterion {
  title: string;
  description: string;
  /** A positive magnitude: a principle adds it when met, a pitfall subtracts it when exhibited. */
  weight: number;
  kind: CriterionKind;
}

export interface Rubric {
  criteria: Criterion[];
  source: string;
  domain: string;
  notes: string;
}

/** A rubric the SDK would refuse (no criteria, an empty title, two equal slugs): a ValueError there. */
export class RubricError extends Error {
  readonly pythonType = 'ValueError';
}

// The category words of Lambert 2025 (chapter Synthetic Data and Distillation), at the start of a description or
// title (with an optional "Criteria:"), or as a bracketed tag anywhere in either.
const CATEGORY = 'essential|important|optional|pitfall|hard rule|principle';
const PREFIX = new RegExp(`^\\s*\\[?(${CATEGORY})\\]?\\s*(criteria|criterion)?\\s*[:\\-]?\\s*`, 'i');
const TAG = new RegExp(`\\[(${CATEGORY})\\]`, 'i');
const CATEGORY_KIND: Record<string, CriterionKind> = { essential: 'hard', 'hard rule': 'hard', important: 'principle', optional: 'principle', principle: 'principle', pitfall: 'pitfall' };

/** The title lower-cased, every run of other characters one "_", trimmed of "_", 40 characters at most. */
export function criterionSlug(text: unknown): string {
  const slug = pyStr(text).toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40);
  return slug || 'criterion';
}

/** Python str(x or "").strip(). */
const text = (value: unknown): string => (pyTruthy(value) ? pyStr(value) : '').trim();

/** A criterion checked as the SDK's constructor checks it. */
export function makeCriterion(title: string, description: string, weight: number, kind: CriterionKind): Criterion {
  if (!title.trim()) throw new RubricError('a criterion needs a title');
  if (!CRITERION_KINDS.includes(kind)) throw new RubricError(`kind must be one of hard, principle, pitfall; got '${String(kind)}'`);
  if (!(weight > 0)) throw new RubricError('weight is a positive magnitude; a pitfall subtracts it');
  return { title, description, weight, kind };
}

/** Criterion.from_dict: `kind` as given, else the category prefix or tag, else a negative weight is a pitfall. */
export function criterionFromDict(raw: unknown): Criterion {
  if (!isObject(raw)) throw new RubricError(`a criterion is an object {title, description?, weight?, kind?}, got ${Array.isArray(raw) ? 'a list' : pyStr(raw)}`);
  const title = text(raw.title);
  const description = text(raw.description);
  let kind = text(raw.kind).toLowerCase();
  // float(weight), 1.0 when it would raise (a list, an object, null, a word)
  let weight = Object.hasOwn(raw, 'weight') ? (pyFloat(raw.weight) ?? 1) : 1;
  if (!kind) {
    const found = PREFIX.exec(description) ?? PREFIX.exec(title) ?? TAG.exec(title) ?? TAG.exec(description);
    kind = found ? CATEGORY_KIND[found[1].toLowerCase()] : weight < 0 ? 'pitfall' : 'principle';
  }
  if (!(CRITERION_KINDS as readonly string[]).includes(kind)) kind = 'principle';
  if (weight < 0) weight = -weight;
  if (weight === 0) weight = 1;
  return makeCriterion(title, description, weight, kind as CriterionKind);
}

/** A rubric checked as the SDK's constructor checks it: at least one criterion, no two with one slug. */
export function makeRubric(criteria: Criterion[], source = 'hand', domain = '', notes = ''): Rubric {
  if (criteria.length === 0) throw new RubricError('a rubric needs at least one criterion');
  const seen = new Set<string>();
  for (const criterion of criteria) {
    const slug = criterionSlug(criterion.title);
    if (seen.has(slug)) throw new RubricError(`two criteria share the slug '${slug}'; retitle one`);
    seen.add(slug);
  }
  return { criteria, source, domain, notes };
}

/** Rubric.from_dict: `{criteria: [...], source?, domain?, notes?}` or a bare list of criteria. */
export function rubricFromDict(raw: unknown): Rubric {
  if (isObject(raw)) {
    const items = pyTruthy(raw.criteria) ? raw.criteria : [];
    if (!Array.isArray(items)) throw new RubricError('a rubric\'s "criteria" is a list of criteria');
    return makeRubric(items.map(criterionFromDict), pyTruthy(raw.source) ? pyStr(raw.source) : 'hand', pyTruthy(raw.domain) ? pyStr(raw.domain) : '', pyTruthy(raw.notes) ? pyStr(raw.notes) : '');
  }
  if (Array.isArray(raw)) return makeRubric(raw.map(criterionFromDict));
  throw new RubricError(`a rubric is {criteria: [...]} or a list of criteria, got ${raw === null || raw === undefined ? 'nothing' : typeof raw}`);
}

/** Criterion.to_dict (weight a float, as the SDK writes it). */
export function criterionToDict(c: Criterion): Record<string, unknown> {
  return { title: c.title, description: c.description, weight: c.weight, kind: c.kind };
}

/**
 * The rubric's version: the first 12 hex of SHA-256 of the criteria as Python's json.dumps(sort_keys=True) writes
 * them (weights as floats, "1.0"), so an edited criterion is a new rubric and the SDK and the desk agree on it.
 */
export function rubricVersion(rubric: Rubric): string {
  const dumped = rubric.criteria
    .map((c) => `{"description": ${pyJsonString(c.description)}, "kind": ${pyJsonString(c.kind)}, "title": ${pyJsonString(c.title)}, "weight": ${pyFloatRepr(c.weight)}}`)
    .join(', ');
  return sha256Hex(`[${dumped}]`).slice(0, 12);
}

export function rubricToDict(rubric: Rubric): Record<string, unknown> {
  return { criteria: rubric.criteria.map(criterionToDict), source: rubric.source, domain: rubric.domain, notes: rubric.notes, version: rubricVersion(rubric) };
}

const KIND_WORD: Record<CriterionKind, string> = { hard: 'Hard rule', principle: 'Principle', pitfall: 'Pitfall' };

/** The rubric as the judge model reads it: one numbered line per criterion, with its kind and weight. */
export function rubricChecklist(rubric: Rubric): string {
  return rubric.criteria
    .map((c, i) => {
      const head = `${i + 1}. [${KIND_WORD[c.kind]}, weight ${pyG(c.weight)}] ${c.title}`;
      return c.description ? `${head}: ${c.description}` : head;
    })
    .join('\n');
}

/** rubric_of(row): the row's privileged.rubric as a rubric, or null when it has none or it does not parse. */
export function rubricOfRow(row: unknown): Rubric | null {
  if (!isObject(row) || !isObject(row.privileged)) return null;
  const raw = row.privileged.rubric;
  if (!pyTruthy(raw)) return null;
  try {
    return rubricFromDict(raw);
  } catch (error) {
    if (error instanceof RubricError) return null;
    throw error;
  }
}
