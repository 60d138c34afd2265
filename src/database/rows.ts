/**
 * Typed reads of a raw result row. A repository that runs SQL text maps each row with one
 * small function built from these, so a column that is missing or of another type fails
 * loudly at the boundary instead of travelling on under a cast.
 */
export type QueryRow = Record<string, unknown>;

export class RowShapeError extends Error {
  constructor(column: string, expected: string, value: unknown) {
    super(`column ${column}: expected ${expected}, got ${value === null ? 'null' : typeof value}`);
  }
}

export function text(row: QueryRow, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw new RowShapeError(column, 'text', value);
  return value;
}

export function textOrNull(row: QueryRow, column: string): string | null {
  const value = row[column];
  return value === null || value === undefined ? null : text(row, column);
}

export function bool(row: QueryRow, column: string): boolean {
  const value = row[column];
  if (typeof value !== 'boolean') throw new RowShapeError(column, 'boolean', value);
  return value;
}

/** int4 and float columns arrive as numbers; int8 and numeric as text (node-postgres keeps their precision). */
export function num(row: QueryRow, column: string): number {
  const value = row[column];
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || Number.isNaN(n)) throw new RowShapeError(column, 'number', value);
  return n;
}

export function date(row: QueryRow, column: string): Date {
  const value = row[column];
  if (!(value instanceof Date)) throw new RowShapeError(column, 'timestamp', value);
  return value;
}

/** A jsonb object column. */
export function json(row: QueryRow, column: string): Record<string, unknown> {
  const value = row[column];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new RowShapeError(column, 'json object', value);
  return value as Record<string, unknown>;
}

export function textArray(row: QueryRow, column: string): string[] {
  const value = row[column];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new RowShapeError(column, 'text[]', value);
  return value as string[];
}
