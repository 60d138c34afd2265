import fc from 'fast-check';
import { sanitizeMetadata, sanitizeText } from './sanitize';

describe('audit sanitizing', () => {
  it('removes NUL bytes and cuts text to the limit without splitting characters', () => {
    expect(sanitizeText('a\u0000b', 10)).toBe('ab');
    expect(sanitizeText('😀😀😀', 2)).toBe('😀😀');
    expect(sanitizeText(undefined, 5)).toBeNull();
  });

  it('always produces JSON that parses to an object, whatever the metadata', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.anything()), (metadata) => {
        const parsed = JSON.parse(sanitizeMetadata(metadata as Record<string, unknown>)) as unknown;
        expect(typeof parsed).toBe('object');
        expect(JSON.stringify(parsed)).not.toContain('\\u0000');
      }),
    );
  });

  it('replaces cyclic and oversized metadata with a marker instead of failing', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(JSON.parse(sanitizeMetadata(cyclic))).toEqual({ a: 1, self: '[circular]' });
    expect(JSON.parse(sanitizeMetadata({ big: 'x'.repeat(20000) }))).toMatchObject({ truncated: true });
  });
});
