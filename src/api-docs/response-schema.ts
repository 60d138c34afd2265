import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * A response body's OpenAPI schema, written once beside the code that builds the body: the view
 * function's return type is `ViewOf<typeof SCHEMA>`, so the schema and what the route really
 * answers cannot drift apart (a field the schema requires and the view leaves out, or a type that
 * differs, fails the type check). Each schema is registered under components.schemas by its name
 * when its module loads; buildOpenApiDocument adds every registered one (decision 0180).
 */
export interface NamedSchema<S> {
  readonly name: string;
  readonly schema: S;
}

/** A `$ref` to a named schema that carries the referenced view's type, for ViewOf. */
export interface SchemaRef<S> {
  readonly $ref: string;
  readonly [VIEW]?: S;
}
declare const VIEW: unique symbol;

const catalog = new Map<string, SchemaObject>();

/** Declares (and registers) a named schema: a response body, or a request body that has no DTO class (SCIM). */
export function namedSchema<const S extends object>(name: string, schema: S): NamedSchema<S> {
  if (catalog.has(name)) throw new Error(`response schema ${name} is declared twice`);
  catalog.set(name, schema as SchemaObject);
  return { name, schema };
}

/** Every declared schema (those of the modules loaded so far), by name. */
export function declaredSchemas(): Record<string, SchemaObject> {
  return Object.fromEntries(catalog);
}

export const ref = <S>(named: NamedSchema<S>): SchemaRef<S> => ({ $ref: `#/components/schemas/${named.name}` });

/** The value a schema describes: required properties as required, nullable as `| null`, enums as unions. */
export type ViewOf<S> = S extends NamedSchema<infer T> ? ValueOf<T> : ValueOf<S>;

type ValueOf<S> = S extends { nullable: true } ? BareValueOf<S> | null : BareValueOf<S>;

type BareValueOf<S> = S extends { $ref: string; [VIEW]?: infer T }
  ? ValueOf<T>
  : S extends { allOf: readonly [infer A, infer B] }
    ? ValueOf<A> & ValueOf<B>
    : S extends { anyOf: readonly (infer A)[] }
      ? ValueOf<A>
      : S extends { enum: readonly (infer E)[] }
        ? E
        : S extends { type: 'string' }
          ? string
          : S extends { type: 'integer' | 'number' }
            ? number
            : S extends { type: 'boolean' }
              ? boolean
              : S extends { type: 'array'; items: infer I }
                ? ValueOf<I>[]
                : S extends { properties: infer P }
                  ? ObjectOf<P, S extends { required: readonly (infer R)[] } ? R : never> &
                      (S extends { additionalProperties: true } ? Record<string, unknown> : unknown)
                  : S extends { additionalProperties: infer A extends { type: string } }
                    ? Record<string, ValueOf<A>>
                    : S extends { type: 'object' }
                      ? object
                      : unknown;

type ObjectOf<P, R> = Flat<{ -readonly [K in keyof P & R]: ValueOf<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: ValueOf<P[K]> }>;
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * A named object schema whose every property is required (most views): the required list is read
 * off the properties, so a property is named once and a new one cannot be left out of the list.
 */
export function allRequiredSchema<const S extends { type: 'object'; properties: object }>(name: string, schema: S) {
  const { properties, ...rest } = schema;
  const required = Object.keys(properties) as (keyof S['properties'] & string)[];
  return namedSchema(name, { ...rest, required, properties } as Omit<S, 'properties'> & {
    required: typeof required;
    properties: S['properties'];
  });
}

/** Building blocks of the schemas. */
export const id = { type: 'string', format: 'uuid', example: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11' } as const;
export const time = { type: 'string', format: 'date-time', example: '2026-11-24T12:00:00.000Z' } as const;
export const nullableTime = { ...time, nullable: true } as const;
export const str = <const E extends object = object>(example: string, extra?: E) =>
  ({ type: 'string', example, ...extra }) as { type: 'string'; example: string } & E;

/**
 * A page of a list: `results` (items of the named schema) beside what every page carries, such as
 * what a client passes back to read the next page (nextCursor) and the limit applied; all required.
 */
export function pageSchema<I, const P extends object>(name: string, item: NamedSchema<I>, pageFields: P) {
  return namedSchema(name, {
    type: 'object',
    required: ['results', ...(Object.keys(pageFields) as (keyof P & string)[])],
    properties: { results: { type: 'array', items: ref(item) }, ...pageFields },
  });
}

/** `next_cursor`: what to pass as `cursor` for the next page; null on the last one. */
export const nextCursor = <const T extends 'string' | 'integer', const E>(type: T, example: E, description: string) =>
  ({ next_cursor: { type, nullable: true, example, description } }) as const;

/** An opaque next_cursor (keyset paging): no example value a client could build on. */
export const OPAQUE_NEXT_CURSOR = nextCursor('string', null, 'Pass as `cursor` for the next page; null on the last page.');
