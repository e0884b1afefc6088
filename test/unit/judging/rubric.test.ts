// Rubrics (shared/judging): kinds from prefixes and tags, slugs, the version hash, scoring, key matching, markers.
import { describe, expect, it } from 'vitest';
import { criterionFromDict, criterionSlug, rubricChecklist, rubricFromDict, rubricOfRow, rubricVersion, RubricError } from '../../../shared/judging/rubric';
import { parseCriteriaReply, resolveCriteria, scoreRubric, scoreWithRubric } from '../../../shared/judging/rubric-score';
import { parseOrderedJson } from '../../../shared/text/ordered-json';

const refund = rubricFromDict([
  { title: 'Looked up the order', description: 'Essential Criteria: calls get_order first' },
  { title: 'States the status', weight: 2 },
  { title: 'Offers next steps' },
  { title: 'Invented order data', weight: -1.5 },
]);

describe('rubric model', () => {
  it('reads kinds from kind, prefixes, tags and negative weights; weights as magnitudes', () => {
    expect(refund.criteria.map((c) => [c.kind, c.weight])).toEqual([['hard', 1], ['principle', 2], ['principle', 1], ['pitfall', 1.5]]);
    expect(criterionFromDict({ title: 'Five items [Hard Rule]' }).kind).toBe('hard');
    expect(criterionFromDict({ title: 'x', description: 'Optional: nice' }).kind).toBe('principle');
    expect(criterionFromDict({ title: 'x', kind: 'bonus', weight: 0 })).toMatchObject({ kind: 'principle', weight: 1 });
    expect(criterionFromDict({ title: 'x', weight: 'heavy' }).weight).toBe(1);
    expect(criterionSlug('  Looked up -- the ORDER! ')).toBe('looked_up_the_order');
    expect(criterionSlug('!!!')).toBe('criterion');
  });

  it('refuses what the SDK refuses, naming why', () => {
    expect(() => rubricFromDict([])).toThrow(RubricError);
    expect(() => rubricFromDict([{ title: 'Polite!' }, { title: 'polite' }])).toThrow(/share the slug 'polite'/);
    expect(() => rubricFromDict([{ title: ' ' }])).toThrow(/needs a title/);
    expect(() => rubricFromDict('criteria')).toThrow(RubricError);
  });

  it('versions by content: an edit is a new version, the same criteria the same one', () => {
    const same = rubricFromDict({ criteria: refund.criteria.map((c) => ({ ...c })), source: 'model' });
    expect(rubricVersion(same)).toBe(rubricVersion(refund));
    expect(rubricVersion(refund)).toMatch(/^[0-9a-f]{12}$/);
    const edited = rubricFromDict([...refund.criteria.slice(0, 3), { title: 'Invented order data', weight: -2 }]);
    expect(rubricVersion(edited)).not.toBe(rubricVersion(refund));
    expect(rubricChecklist(refund).split('\n')[3]).toBe('4. [Pitfall, weight 1.5] Invented order data');
  });

  it('a row rubric that does not parse is no rubric', () => {
    expect(rubricOfRow({ privileged: { rubric: [{ title: 'a' }, { title: 'A' }] } })).toBeNull();
    expect(rubricOfRow({ privileged: {} })).toBeNull();
    expect(rubricOfRow({ privileged: { rubric: [{ title: 'a' }] } })?.criteria).toHaveLength(1);
  });
});

describe('rubric scoring', () => {
  it('a missed hard rule is 0; otherwise met principles minus hit pitfalls over the principle weight', () => {
    expect(scoreRubric(refund, { 1: false, 2: true, 3: true }).reward).toBe(0);
    expect(scoreRubric(refund, { 1: true, 2: true, 3: false, 4: false }).reward).toBe(0.6667);
    expect(scoreRubric(refund, { 1: true, 2: true, 3: true, 4: true }).reward).toBe(0.5);
    const none = scoreRubric(refund, {});
    expect(none.unanswered).toHaveLength(4);
    expect(none.hard_failed).toEqual(['Looked up the order']);
  });

  it('matches keys by number, title, slug, a unique prefix or containment', () => {
    const by = resolveCriteria(refund, { '2.': 1, 'Looked up the order': 1, offers: 1, 'the Invented order data here': 1, order: 0 });
    expect([...by.keys()].sort()).toEqual(['invented_order_data', 'looked_up_the_order', 'offers_next_steps', 'states_the_status']);
  });

  it('a later key for one criterion wins, in the order the reply wrote them (integer-like keys included)', () => {
    const reply = '{"criteria": {"Looked up the order": true, "1": false, "2": true}}';
    const parsed = parseCriteriaReply(reply);
    expect(parsed.results).toEqual([['Looked up the order', true], ['1', false], ['2', true]]);
    expect(scoreWithRubric(refund, parsed.results!).markers['rubric:looked_up_the_order']).toBe(0);
    const ordered = parseOrderedJson('{"Looked up the order": true, "1": false}') as Record<string, unknown>;
    expect(scoreRubric(refund, ordered).hard_failed).toEqual(['Looked up the order']);
  });

  it('markers: 1 the good outcome (met, or a pitfall not exhibited)', () => {
    const verdict = scoreWithRubric(refund, { 1: 'yes', 2: 'met', 3: 'no', 4: 'true' }, 'why');
    expect(verdict.markers).toEqual({ 'rubric:looked_up_the_order': 1, 'rubric:states_the_status': 1, 'rubric:offers_next_steps': 0, 'rubric:invented_order_data': 0 });
    expect(verdict).toMatchObject({ reason: 'why', rubric_version: rubricVersion(refund), n_unanswered: 0, pitfalls_hit: ['Invented order data'] });
  });

  it('a reply with no criteria object gives no results', () => {
    expect(parseCriteriaReply('I think it passed').results).toBeNull();
    expect(parseCriteriaReply('{"criteria": "all"}')).toEqual({ results: null, reason: '' });
    expect(parseCriteriaReply('{"reason": " r ", "criteria": [{"title": "x", "value": "pass"}]}')).toEqual({ results: [['x', true]], reason: 'r' });
  });
});

describe('parseOrderedJson', () => {
  it('reads JSON as JSON.parse does, plus NaN and Infinity, with the written key order kept', () => {
    const text = '{"b": [1, -2.5e3, "x\\n\\u00e9"], "10": null, "__proto__": {"a": true}, "2": false}';
    const value = parseOrderedJson(text) as Record<string, unknown>;
    expect(value).toEqual(JSON.parse(text));
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(parseOrderedJson('[NaN, -Infinity]')).toEqual([NaN, -Infinity]);
    for (const bad of ['{"a": 1,}', '[1 2]', '{"a" 1}', '"open', '01', '{} x']) expect(() => parseOrderedJson(bad), bad).toThrow(SyntaxError);
  });
});
