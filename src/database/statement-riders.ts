import type { DataSource, EntityManager } from 'typeorm';
import type { StatementRider } from '../events/domain-events';
import { QueryRow, textOrNull } from './rows';
import { readRows, rewritten, runRaw, type Statement } from './statement';

/**
 * A single-row data-modifying statement (`INSERT … RETURNING …`) with the unit of work's riders:
 * the change becomes a CTE and each rider a column of the final SELECT, so a rider runs once if
 * the change returned its row and not at all if it returned none. Rider placeholders are
 * renumbered after the change's own.
 */
export function withRiders(change: string, params: unknown[], riders: readonly StatementRider[]): { sql: string; params: unknown[] } {
  if (riders.length === 0) return { sql: change, params };
  const values = [...params];
  const columns = riderColumns(values, riders);
  return { sql: `WITH changed AS (${change}) SELECT changed.*, ${columns.join(', ')} FROM changed`, params: values };
}

/** Where withRiderColumns puts the riders' columns (a comment, so the text runs as it is without riders). */
export const RIDER_COLUMNS = '/*riders*/';

/**
 * The riders as extra columns of a statement that is already a CTE whose final SELECT returns one
 * row per change made (e.g. `… SELECT … FROM spent`), for a change of several tables that cannot
 * nest in `withRiders`'s CTE (PostgreSQL keeps data-modifying WITH at the top level): the text holds
 * RIDER_COLUMNS after its last column. A rider runs once per row that SELECT returns, so not at all
 * when nothing changed.
 */
export function withRiderColumns(text: string, params: unknown[], riders: readonly StatementRider[]): { sql: string; params: unknown[] } {
  if (!text.includes(RIDER_COLUMNS)) throw new Error('the statement has no place for riders');
  const values = [...params];
  const columns = riderColumns(values, riders).map((column) => `, ${column}`);
  return { sql: text.replace(RIDER_COLUMNS, columns.join('')), params: values };
}

/** Each rider as `(expression)::text AS rider_<i>`, its parameters appended to `values` and renumbered. */
function riderColumns(values: unknown[], riders: readonly StatementRider[]): string[] {
  return riders.map((rider, i) => {
    const offset = values.length;
    values.push(...rider.params);
    const expression = rider.expression.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
    return `(${expression})::text AS rider_${i}`;
  });
}

/** Tells each rider what it answered on the first returned row (a single-row change has one). */
export function settleRiders(rows: readonly QueryRow[], riders: readonly StatementRider[]): void {
  if (rows.length === 0) return;
  riders.forEach((rider, i) => rider.settle(textOrNull(rows[0], `rider_${i}`)));
}

/**
 * Runs `s` with the unit of work's riders on it: as its columns where its text has their place
 * (RIDER_COLUMNS, withRiderColumns), else nested around it (withRiders). Tells each rider what it
 * answered and reads the rows the statement answers.
 */
export async function runWithRiders<R>(
  on: DataSource | EntityManager,
  s: Statement<R>,
  params: unknown[],
  riders: readonly StatementRider[],
): Promise<R[]> {
  const ridden = s.text.includes(RIDER_COLUMNS) ? withRiderColumns(s.text, params, riders) : withRiders(s.text, params, riders);
  const statement = rewritten(s, ridden.sql);
  const rows = await runRaw(on, statement, ridden.params);
  settleRiders(rows, riders);
  return readRows(on, statement, rows);
}
