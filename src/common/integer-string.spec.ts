import { plainToInstance } from 'class-transformer';
import { IsInt, validateSync } from 'class-validator';
import fc from 'fast-check';
import { IsIntegerString, QueryInt } from './integer-string';

class Cursor {
  @IsIntegerString(0, Number.MAX_SAFE_INTEGER) cursor: unknown;
}
class Limit {
  @QueryInt() @IsInt() limit: unknown;
}

const accepts = (cursor: unknown) => validateSync(plainToInstance(Cursor, { cursor })).length === 0;
const MAX = BigInt(Number.MAX_SAFE_INTEGER);

describe('IsIntegerString', () => {
  it('accepts every decimal integer from 0 to the maximum', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: MAX }), (n) => accepts(n.toString())));
  });

  it('refuses every integer past either bound, however large, without rounding it first', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.bigInt({ min: MAX + 1n, max: 2n ** 80n }), fc.bigInt({ min: -(2n ** 80n), max: -1n })),
        (n) => !accepts(n.toString()),
      ),
    );
    // 2^53 + 1 rounds to 2^53 as a JS number; compared as text it is past the bound.
    expect(accepts('9007199254740993')).toBe(false);
    expect(accepts('9223372036854775808')).toBe(false);
  });

  it('refuses what Number() would read as an integer but is not one in decimal digits', () => {
    for (const text of ['0x10', ' 1', '1 ', '1e3', '1.0', '+1', '01', '', 'NaN', 'Infinity', '-0']) {
      expect({ text, ok: accepts(text) }).toEqual({ text, ok: false });
    }
    expect(accepts(5)).toBe(false);
    expect(accepts(['1'])).toBe(false);
  });
});

describe('QueryInt', () => {
  const limit = (value: unknown) => plainToInstance(Limit, { limit: value });

  it('turns decimal digits into a number and leaves anything else for @IsInt to refuse', () => {
    expect(limit('42').limit).toBe(42);
    expect(limit('-3').limit).toBe(-3);
    for (const text of ['0x10', ' 1', '1e3', '1.5', '', 'abc']) expect(validateSync(limit(text))).not.toEqual([]);
  });
});
