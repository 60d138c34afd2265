import { applyDecorators } from '@nestjs/common';
import { ValidateBy, ValidateIf } from 'class-validator';

/**
 * The one rule for absent and null request fields (decision 0041). class-validator's
 * `@IsOptional()` skips every other rule for `undefined` *and* `null`, so a JSON `null` reached
 * the services unchecked (NOT NULL violations, `Object.entries(null)`, silent no-ops). DTOs use
 * `@Optional()` instead:
 *
 * - `@Optional()`: the field may be left out; `null` is refused with 400 `validation_failed`
 *   naming the field ("name must not be null").
 * - `@Optional({ nullable: true })`: the field may be left out or be `null`, and the OpenAPI
 *   schema says `nullable: true` (src/api-docs/validation-rules.ts reads it from this rule); the
 *   service says what `null` means there (clear the value, or no expiry).
 *
 * `src/common/dto-null-rule.spec.ts` loads every DTO and refuses a bare `@IsOptional()` or a
 * field that accepts `null` without documenting it.
 */
export const PRESENCE_CONTEXT = 'presence';

export function Optional(options: { nullable?: boolean } = {}): PropertyDecorator {
  if (options.nullable) {
    return ValidateIf((_object, value) => value !== undefined && value !== null, { context: { [PRESENCE_CONTEXT]: 'nullable' } });
  }
  return applyDecorators(
    ValidateIf((_object, value) => value !== undefined, { context: { [PRESENCE_CONTEXT]: 'optional' } }),
    NotNull(),
  );
}

/** Refuses `null` with a message naming the field; a required field gets it from its type rule. */
export function NotNull(): PropertyDecorator {
  return ValidateBy({
    name: 'notNull',
    validator: {
      validate: (value) => value !== null,
      defaultMessage: (args) => `${args?.property ?? 'value'} must not be null`,
    },
  });
}
