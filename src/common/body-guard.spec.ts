import fc from 'fast-check';
import { inspectJson } from './body-guard';

describe('JSON body guard', () => {
  it('measures the nesting of arrays and objects', () => {
    expect(inspectJson({ a: { b: 1 } }, 2)).toBeNull();
    expect(inspectJson({ a: { b: {} } }, 2)).toBe('too_deep');
    expect(inspectJson(JSON.parse('['.repeat(100000) + ']'.repeat(100000)), 32)).toBe('too_deep');
  });

  it('finds lone surrogates and NUL in values and keys', () => {
    expect(inspectJson(JSON.parse('{"email": "\\ud800"}'), 32)).toBe('unstorable_text');
    expect(inspectJson(JSON.parse('{"\\udc00": 1}'), 32)).toBe('unstorable_text');
    expect(inspectJson({ name: 'a\u0000b' }, 32)).toBe('unstorable_text');
    expect(inspectJson({ 'k\u0000': 1 }, 32)).toBe('unstorable_text');
    expect(inspectJson({ ok: '\uFFFF\uFFFE\u0001' }, 32)).toBeNull();
    expect(inspectJson({ emoji: '😀' }, 32)).toBeNull();
  });

  it('never throws, whatever the value', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => inspectJson(v, 8) !== undefined));
  });
});
