// The depth scan run before JSON.parse: brackets inside strings do not count, escaped quotes do not end a string.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsTooDeep } from '../../shared/text/json-depth';
import { escapeControls, escapeControlsKeepLines } from '../../shared/text/escape-controls';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('nestsTooDeep', () => {
  it('refuses more than the limit and accepts the limit itself', () => {
    expect(MAX_JSON_DEPTH).toBe(512);
    expect(nestsTooDeep(nested(512))).toBe(false);
    expect(nestsTooDeep(nested(513))).toBe(true);
    expect(nestsTooDeep(`{"a":${'{"b":'.repeat(600)}1${'}'.repeat(600)}}`)).toBe(true);
  });

  it('counts brackets outside strings only, with escaped quotes inside them', () => {
    expect(nestsTooDeep(JSON.stringify({ text: '['.repeat(5000) }))).toBe(false);
    expect(nestsTooDeep(JSON.stringify({ text: `"\\${'{'.repeat(5000)}` }))).toBe(false);
    expect(nestsTooDeep(`["\\"", ${nested(600)}]`)).toBe(true);
    // many brackets side by side are shallow
    expect(nestsTooDeep(JSON.stringify(Array.from({ length: 2000 }, () => [1])))).toBe(false);
  });
});

describe('escapeControls', () => {
  it('shows C0, DEL, C1 and bidi controls as escapes; the line variant keeps newlines and tabs', () => {
    expect(escapeControls('a\u001b[31mb\u0007\u007f\u009b\u202e\n\t')).toBe('a\\x1b[31mb\\x07\\x7f\\x9b\\u202e\\x0a\\x09');
    expect(escapeControlsKeepLines('one\u001b]0;x\u0007\n\ttwo\r')).toBe('one\\x1b]0;x\\x07\n\ttwo\\x0d');
    expect(escapeControls('café 日本 😀')).toBe('café 日本 😀');
  });
});
