import type { StatementRider } from '../events/domain-events';
import { QueryRow, textOrNull } from './rows';

/**
 * A single-row data-modifying statement (`INSERT … RETURNING …`) with the unit of work's riders:
 * the change becomes a CTE and each rider a column of the final SELECT, so a rider runs once if
 * the change returned its row and not at all if it returned none. Rider placeholders are
 * renumbered after the change's own.
 */
export function withRiders(change: string, params: unknown[], riders: readonly StatementRider[]): { sql: string; params: unknown[] } {
  if (riders.length === 0) return { sql: change, params };
  const values = [...params];
  const columns = riders.map((rider, i) => {
    const offset = values.length;
    values.push(...rider.params);
    const expression = rider.expression.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
    return `(${expression})::text AS rider_${i}`;
  });
  return { sql: `WITH changed AS (${change}) SELECT changed.*, ${columns.join(', ')} FROM changed`, params: values };
}

/** Tells each rider what it answered on the first returned row (a single-row change has one). */
export function settleRiders(rows: readonly QueryRow[], riders: readonly StatementRider[]): void {
  if (rows.length === 0) return;
  riders.forEach((rider, i) => rider.settle(textOrNull(rows[0], `rider_${i}`)));
}
