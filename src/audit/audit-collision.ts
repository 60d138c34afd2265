import { isUniqueViolation } from '../common/db-errors';

/** @deprecated Transitional: the per-workspace unique created_at rejected a concurrent insert outside audit_append. */
export function isTimestampCollision(err: unknown): boolean {
  return isUniqueViolation(err, 'audit_events_workspace_created_key');
}
