import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { PRESENCE_CONTEXT } from '../common/optional';

type Rule = (schema: SchemaObject, constraints: unknown[]) => void;

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** class-validator rule → the JSON-schema keywords that say the same thing. */
const RULES: Record<string, Rule> = {
  maxLength: (s, [max]) => (s.maxLength = num(max) ?? s.maxLength),
  minLength: (s, [min]) => (s.minLength = num(min) ?? s.minLength),
  isLength: (s, [min, max]) => {
    s.minLength = num(min) ?? s.minLength;
    s.maxLength = num(max) ?? s.maxLength;
  },
  isEmail: (s) => (s.format ??= 'email'),
  isUuid: (s) => (s.format ??= 'uuid'),
  isUrl: (s) => (s.format ??= 'uri'),
  isIn: (s, [values]) => {
    if (Array.isArray(values) && !s.enum) s.enum = [...(values as unknown[])];
  },
  min: (s, [min]) => (s.minimum = num(min) ?? s.minimum),
  max: (s, [max]) => (s.maximum = num(max) ?? s.maximum),
  isInt: (s) => (s.type = 'integer'),
  isBoolean: (s) => (s.type ??= 'boolean'),
  isIntegerString: (s, [min, max]) => {
    s.type = 'integer';
    s.minimum = num(min) ?? s.minimum;
    s.maximum = num(max) ?? s.maximum;
  },
  arrayMinSize: (s, [min]) => (s.minItems = num(min) ?? s.minItems),
  arrayMaxSize: (s, [max]) => (s.maxItems = num(max) ?? s.maxItems),
  matches: (s, [pattern]) => {
    if (pattern instanceof RegExp && !pattern.flags.includes('i')) s.pattern ??= pattern.source;
  },
};

/**
 * Writes the rules the global ValidationPipe enforces (class-validator decorators on the DTO
 * classes) into the request schemas @nestjs/swagger made from the same classes, so the description
 * never says less than the server checks: lengths, formats, enums, bounds, array sizes, patterns.
 */
export function applyValidationRules(schemas: Record<string, SchemaObject | ReferenceObject>): void {
  const storage = getMetadataStorage();
  // The storage keeps every decorated class; its index is private, hence the element access.
  const byClass = storage['validationMetadatas'] as Map<{ name: string }, ValidationMetadata[]>;
  for (const [target, metadata] of byClass) {
    const schema = schemas[target.name];
    if (!schema || '$ref' in schema || !schema.properties) continue;
    for (const rule of metadata) {
      const property = schema.properties[rule.propertyName] as SchemaObject | undefined;
      // @Optional({ nullable: true }) is the only way a request field accepts null (decision 0041).
      if (property && !('$ref' in property) && isNullableRule(rule)) property.nullable = true;
      const apply = rule.name ? RULES[rule.name] : undefined;
      if (!property || !apply || '$ref' in property || property.allOf) continue;
      const subject =
        rule.each && property.type === 'array' && property.items && !('$ref' in property.items)
          ? (property.items as SchemaObject)
          : property;
      apply(subject, rule.constraints ?? []);
    }
  }
}

function isNullableRule(rule: ValidationMetadata): boolean {
  const context = rule.context as Record<string, unknown> | undefined;
  return rule.type === 'conditionalValidation' && context?.[PRESENCE_CONTEXT] === 'nullable';
}

interface QueryParameter {
  name: string;
  in: string;
  schema?: SchemaObject | ReferenceObject;
}

/**
 * The same for query parameters, which @nestjs/swagger spreads out of a query DTO: the DTO is the
 * validated class whose properties are exactly the operation's query parameters.
 */
export function applyValidationRulesToQueries(operations: Array<{ parameters?: unknown[] }>): void {
  const byClass = getMetadataStorage()['validationMetadatas'] as Map<{ name: string }, ValidationMetadata[]>;
  const classes = [...byClass.values()].map((metadata) => ({ metadata, names: new Set(metadata.map((m) => m.propertyName)) }));
  for (const op of operations) {
    const query = (op.parameters ?? []).filter((p): p is QueryParameter => (p as QueryParameter).in === 'query');
    if (query.length === 0) continue;
    const dto = classes.find((c) => c.names.size === query.length && query.every((p) => c.names.has(p.name)));
    if (!dto) continue;
    for (const rule of dto.metadata) {
      const schema = query.find((p) => p.name === rule.propertyName)?.schema;
      const apply = rule.name ? RULES[rule.name] : undefined;
      if (!schema || !apply || '$ref' in schema) continue;
      // A rule on each element of an array parameter (`types`) describes its items, as in bodies.
      const subject =
        rule.each && schema.type === 'array' && schema.items && !('$ref' in schema.items) ? (schema.items as SchemaObject) : schema;
      apply(subject, rule.constraints ?? []);
    }
  }
}
