/**
 * PostgreSQL unique_violation (23505), optionally on one named constraint. TypeORM's
 * QueryFailedError carries node-postgres's fields itself and on `driverError`.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.driverError?.code;
  if (code !== '23505') return false;
  return constraint === undefined || (e?.constraint ?? e?.driverError?.constraint) === constraint;
}

/** PostgreSQL foreign_key_violation (23503), optionally on one named constraint. */
export function isForeignKeyViolation(err: unknown, constraint?: string): boolean {
  const violation = foreignKeyViolation(err);
  return violation !== undefined && (constraint === undefined || violation.constraint === constraint);
}

/** PostgreSQL foreign_key_violation (23503); the violated constraint's name, when there is one. */
export function foreignKeyViolation(err: unknown): { constraint?: string } | undefined {
  const e = err as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.driverError?.code;
  if (code !== '23503') return undefined;
  return { constraint: e?.constraint ?? e?.driverError?.constraint };
}
