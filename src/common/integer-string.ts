import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

export const IS_INTEGER_STRING = 'isIntegerString';

/**
 * A decimal integer sent as text (a query parameter, a cursor) within [min, max], compared as a
 * BigInt so no value is rounded before it is checked: `Number("9223372036854775808")` is already
 * off by 0, and `Number("9007199254740993")` by one (decision 0042). Bounds at or inside the safe
 * integer range keep `Number(value)` exact afterwards; the OpenAPI schema gets type integer,
 * minimum and maximum from this rule (src/api-docs/validation-rules.ts).
 */
export function IsIntegerString(min: number, max: number): PropertyDecorator {
  return ValidateBy({
    name: IS_INTEGER_STRING,
    constraints: [min, max],
    validator: {
      validate: (value) => {
        if (typeof value !== 'string' || !/^(0|[1-9]\d{0,19})$/.test(value)) return false;
        const n = BigInt(value);
        return n >= BigInt(min) && n <= BigInt(max);
      },
      defaultMessage: (args) => `${args?.property ?? 'value'} must be an integer from ${min} to ${max}`,
    },
  });
}

/**
 * A query parameter that is a small integer: only decimal digits become a number, anything else
 * stays text so `@IsInt()` refuses it. `@Type(() => Number)` read `0x10` as 16, ` 1` as 1 and
 * `1e3` as 1000, none of which the OpenAPI document's `type: integer` allows.
 */
export function QueryInt(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value));
}
