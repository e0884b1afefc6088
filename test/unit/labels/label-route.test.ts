// `#/label/<dataset_id>` opens the labeling desk; `#/label` the picker.
import { describe, expect, it } from 'vitest';
import { hrefFor, parseHash } from '../../../renderer/src/store/routes';

describe('the label route', () => {
  it('parses and builds #/label/<id>', () => {
    expect(parseHash('#/label/ds-1')).toMatchObject({ section: 'label', page: 'label', id: 'ds-1' });
    expect(parseHash('#/label')).toMatchObject({ section: 'label', page: 'none', id: null });
    expect(hrefFor({ section: 'label', id: 'ds 1' })).toBe('#/label/ds%201');
    expect(hrefFor({ section: 'label' })).toBe('#/label');
    expect(parseHash(hrefFor({ section: 'label', id: 'a/b' }))).toMatchObject({ id: 'a/b' });
  });
});
