// The Python text rules the marker families depend on: where JavaScript's own regular expressions and string
// methods read text differently from Python's, the markers must still come out as the SDK's.
import { describe, expect, it } from 'vitest';
import { PyPattern, pyHead, pyIsBlank, pyLen, pyStrip } from '../../../../shared/text/py-text';

describe('Python text rules', () => {
  it('$ also matches just before a newline that ends the text, as Python\'s does', () => {
    const p = new PyPattern('test_[^\\\\/]+\\.py$');
    expect(p.search('tests/test_a.py\n')).not.toBeNull();
    expect(p.search('test_a.py\nmore')).toBeNull();
    expect(new RegExp('test_[^\\\\/]+\\.py$').test('test_a.py\n')).toBe(false); // what JavaScript alone says
  });

  it('. does not match a newline but matches \\r; \\s includes U+001C-U+001F and U+0085 but not U+FEFF', () => {
    expect(new PyPattern('a.b').search('a\rb')).not.toBeNull();
    expect(new PyPattern('a.b').search('a\nb')).toBeNull();
    expect(new PyPattern('a\\s+b').search('a\x1cb')).not.toBeNull();
    expect(new PyPattern('a\\s+b').search('a\x85b')).not.toBeNull();
    expect(new PyPattern('a\\s+b').search('a\ufeffb')).toBeNull();
    expect(pyIsBlank(' \x1f\x85')).toBe(true);
    expect(pyIsBlank('\ufeff')).toBe(false);
    expect(pyStrip('\x1c x \x85')).toBe('x');
  });

  it('\\b and \\w are Unicode-aware on text that is not ASCII, as in Python', () => {
    const verified = new PyPattern('\\bI\\s+verified\\b', { ignoreCase: true });
    expect(verified.search('ÅI verified it')).toBeNull(); // Å is a word letter: no boundary before I
    expect(verified.search('é I verified it')).not.toBeNull();
    expect(new PyPattern('except[\\w. ]*:').search('except Ошибка:')).not.toBeNull();
    expect(new PyPattern('\\btest\\b').search('naïvetest')).toBeNull();
  });

  it('lengths and cuts count code points', () => {
    expect(pyLen('a😀b')).toBe(3);
    expect(pyHead('😀😀😀', 2)).toBe('😀😀');
    expect(pyHead('abc', 2)).toBe('ab');
  });

  it('finditer walks every match in order', () => {
    const blocks = [...new PyPattern('<t>(\\d+)</t>').finditer('<t>1</t> x <t>22</t>')].map((m) => m[1]);
    expect(blocks).toEqual(['1', '22']);
  });
});
