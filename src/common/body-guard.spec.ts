import fc from 'fast-check';
import { inspectJson } from './body-guard';

describe('JSON body guard', () => {
  it('measures the nesting of arrays and objects', () => {
    expect(inspectJson({ a: { b: 1 } }, 2)).toBeNull();
    expect(inspectJson({ a: { b: {} } }, 2)).toBe('too_deep');
    expect(inspectJson(JSON.parse('['.repeat(100000) + ']'.repeat(100000)), 32)).toBe('too_deep');
  });

  it('finds lone surrogates in values and keys', () => {
    expect(inspectJson(JSON.parse('{"email": "\\ud800"}'), 32)).toBe('invalid_unicode');
    expect(inspectJson(JSON.parse('{"\\udc00": 1}'), 32)).toBe('invalid_unicode');
    expect(inspectJson({ emoji: '😀' }, 32)).toBeNull();
  });

  it('never throws, whatever the value', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => inspectJson(v, 8) !== undefined));
  });
});
