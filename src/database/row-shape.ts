import type { DataSource, EntityTarget } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { bool, date, json, num, QueryRow, RowShapeError, text, textArray } from './rows';

/** Reads one column of a raw row, checking its type. */
type ReadColumn = (row: QueryRow, column: string) => unknown;

/** One property of the row a statement answers: where it comes from and how it is read. */
export interface RowField {
  property: string;
  column: string;
  read: ReadColumn;
}

/**
 * The row a SQL statement answers, as a typed object. Built from an entity's column metadata
 * (`entityColumns`), so that a property or column renamed in the entity fails when the shape is
 * bound to the data source (at boot, and in the statements test), not on a request; or from
 * columns computed by the statement itself (`computed`). Fields are resolved once per data source.
 */
export class RowShape<R> {
  private bound: { to: DataSource; fields: readonly RowField[]; read: (row: QueryRow) => R } | undefined;

  constructor(private readonly resolve: (dataSource: DataSource) => RowField[]) {}

  /** The typed reader of a raw row on this data source. */
  reader(dataSource: DataSource): (row: QueryRow) => R {
    return this.bind(dataSource).read;
  }

  /** Every result column the reader needs, with the property it becomes. */
  fields(dataSource: DataSource): readonly RowField[] {
    return this.bind(dataSource).fields;
  }

  /** This shape's properties and another's, from the same row. */
  and<S>(other: RowShape<S>): RowShape<R & S> {
    return new RowShape<R & S>((dataSource) => [...this.fields(dataSource), ...other.fields(dataSource)]);
  }

  private bind(dataSource: DataSource) {
    if (this.bound?.to !== dataSource) {
      const fields = this.resolve(dataSource);
      this.bound = { to: dataSource, fields, read: readerOf(fields) };
    }
    return this.bound;
  }
}

/**
 * The reader of a shape, compiled once per shape into one object literal per row: in the service
 * every statement's rows went through one shared loop of keyed stores, which V8 then handles
 * megamorphically (measured: 11–23 % more CPU per request on the audit list, docs/benchmarks-history.md). The
 * generated source holds only property and column names from entity metadata and code, quoted by
 * JSON.stringify; every value is read by the field's own function.
 */
function readerOf<R>(fields: readonly RowField[]): (row: QueryRow) => R {
  const reads = fields.map((f) => f.read);
  const body = fields.map((f, i) => `${JSON.stringify(f.property)}: reads[${i}](row, ${JSON.stringify(f.column)})`).join(',\n');
  const compile = new Function('reads', `return function read(row) {\n  return {\n${body}\n  };\n};`) as (
    reads: readonly ReadColumn[],
  ) => (row: QueryRow) => R;
  return compile(reads);
}

/**
 * The named properties of an entity, read from the columns of its table (their database names,
 * after `prefix` when the statement aliases them, e.g. `chain_` for `chain_seq`). Each column is
 * read and checked by its declared type and nullability, and against `values` when the column
 * holds one of a few words (a CHECK constraint the entity types as a union).
 */
export function entityColumns<E, K extends keyof E & string>(
  entity: EntityTarget<E>,
  properties: readonly K[],
  options: EntityColumnsOptions<K> = {},
): RowShape<Pick<E, K>> {
  return new RowShape((dataSource) => {
    const metadata = dataSource.getMetadata(entity);
    return properties.map((property) => {
      const column = metadata.findColumnWithPropertyName(property);
      if (!column) throw new Error(`row shape: ${metadata.name} has no column for property ${property}`);
      let read = readerForColumn(metadata.name, column);
      const allowed = options.values?.[property];
      if (allowed) read = oneOf(read, allowed);
      const refine = options.refine?.[property];
      if (refine) read = refined(read, refine);
      return { property, column: `${options.prefix ?? ''}${column.databaseName}`, read };
    });
  });
}

export interface EntityColumnsOptions<K extends string> {
  /** Prepended to each column's database name (the statement's alias, e.g. `u_` for `u.email AS u_email`). */
  prefix?: string;
  /** Columns that hold one of a few words (a CHECK constraint the entity types as a union). */
  values?: Partial<Record<K, readonly string[]>>;
  /** A further check of a column's value (e.g. the shape of a jsonb object); throws RowShapeError. */
  refine?: Partial<Record<K, (value: unknown, column: string) => unknown>>;
}

function refined(read: ReadColumn, refine: (value: unknown, column: string) => unknown): ReadColumn {
  return (row, column) => {
    const value = read(row, column);
    return value === null ? null : refine(value, column);
  };
}

function oneOf(read: ReadColumn, allowed: readonly string[]): ReadColumn {
  return (row, column) => {
    const value = read(row, column);
    if (value !== null && !allowed.includes(value as string)) throw new RowShapeError(column, allowed.join('|'), value);
    return value;
  };
}

/** How node-postgres hands over each PostgreSQL type the entities declare. */
const TYPE_READERS: Record<string, ReadColumn> = {};
const reads = (types: string[], read: ReadColumn) => types.forEach((t) => (TYPE_READERS[t] = read));
reads(['text', 'varchar', 'character varying', 'uuid', 'citext', 'inet', 'char', 'character'], text);
// int8 and numeric keep their precision as text; the entities declare them as strings.
reads(['bigint', 'int8', 'numeric', 'decimal'], text);
reads(['int', 'integer', 'int4', 'smallint', 'int2', 'real', 'float4', 'double precision', 'float8'], num);
reads(['boolean', 'bool'], bool);
reads(['timestamptz', 'timestamp with time zone', 'timestamp', 'timestamp without time zone', 'date'], date);
reads(['jsonb', 'json'], present);
reads(['bytea'], buffer);

function present(row: QueryRow, column: string): unknown {
  const value = row[column];
  if (value === null || value === undefined) throw new RowShapeError(column, 'json', value);
  return value;
}

function buffer(row: QueryRow, column: string): Buffer {
  const value = row[column];
  if (!Buffer.isBuffer(value)) throw new RowShapeError(column, 'bytea', value);
  return value;
}

/** A nullable column: null as null, a column missing from the row as an error (not as null). */
function orNull(read: ReadColumn): ReadColumn {
  return (row, column) => {
    const value = row[column];
    if (value === undefined) throw new RowShapeError(column, 'a column of the row', value);
    return value === null ? null : read(row, column);
  };
}

function readerForColumn(entity: string, column: ColumnMetadata): ReadColumn {
  const type = typeof column.type === 'string' ? column.type : column.type.name.toLowerCase();
  const name = { string: 'text', number: 'integer', date: 'timestamptz' }[type] ?? type;
  const element = TYPE_READERS[name];
  if (!element || (column.isArray && element !== text)) {
    throw new Error(`row shape: no reader for ${entity}.${column.propertyName} (${name}${column.isArray ? '[]' : ''})`);
  }
  const read = column.isArray ? textArray : element;
  return column.isNullable ? orNull(read) : read;
}

/** Kinds of a column the statement computes (not an entity's column). */
const KINDS = {
  text,
  'text?': orNull(text) as (row: QueryRow, column: string) => string | null,
  number: num,
  'number?': orNull(num) as (row: QueryRow, column: string) => number | null,
  boolean: bool,
  'boolean?': orNull(bool) as (row: QueryRow, column: string) => boolean | null,
  timestamp: date,
  'timestamp?': orNull(date) as (row: QueryRow, column: string) => Date | null,
  json,
  'json?': orNull(json) as (row: QueryRow, column: string) => Record<string, unknown> | null,
  'text[]': textArray,
} satisfies Record<string, ReadColumn>;
type Kind = keyof typeof KINDS;
type KindValue<K extends Kind> = ReturnType<(typeof KINDS)[K]>;
type ComputedSpec = Record<string, Kind | readonly [column: string, kind: Kind]>;
type ComputedRow<S extends ComputedSpec> = {
  [P in keyof S]: S[P] extends readonly [string, infer K extends Kind] ? KindValue<K> : S[P] extends Kind ? KindValue<S[P]> : never;
};

/**
 * Columns the statement computes (counts, casts, flags, renamed expressions): `{ total: 'number' }`
 * reads column `total`; `{ pageKey: ['page_key', 'text'] }` reads `page_key` into `pageKey`.
 */
export function computed<S extends ComputedSpec>(spec: S): RowShape<ComputedRow<S>> {
  const fields: RowField[] = Object.entries(spec).map(([property, kind]) => {
    const [column, k] = typeof kind === 'string' ? [property, kind] : kind;
    return { property, column, read: KINDS[k] };
  });
  return new RowShape(() => fields);
}

/** A statement that answers no columns the code reads (an UPDATE without RETURNING, a lock). */
export const NO_ROW: RowShape<Record<string, never>> = new RowShape(() => []);

/**
 * Another shape read from the same row under one property, null when the `presence` column is
 * null (the right side of a LEFT JOIN found no row): e.g. a chain link and the event it covers.
 */
export function nested<P extends string, S>(property: P, shape: RowShape<S>, presence: string): RowShape<Record<P, S | null>> {
  return new RowShape((dataSource) => {
    const read = shape.reader(dataSource);
    return [{ property, column: presence, read: (row, column) => (row[column] === null ? null : read(row)) }];
  });
}
