import { Logger } from '@nestjs/common';
import { DataSource, MigrationExecutor } from 'typeorm';

/** Arbitrary but fixed: the advisory lock that serializes migrations across instances. */
const MIGRATION_LOCK = 7_366_221_001;

/**
 * Runs pending migrations under a session advisory lock, so instances that start
 * at the same moment migrate once: the others wait, then find nothing to do.
 * Needs a session: the data source must reach PostgreSQL directly, not through a
 * transaction pooler (for that, see runMigrationsThroughPooler).
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    // Same connection as the lock: the embedded database's pool holds exactly one.
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    const applied = await executor.executePendingMigrations();
    logApplied(applied);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}

/**
 * The same through a pooler in transaction mode, where a session lock would outlive the
 * statement's server connection: every pending migration runs in ONE transaction that first
 * takes the same lock as a transaction-level advisory lock (it conflicts with the session lock
 * of an instance migrating over a direct connection, so the two kinds exclude each other too).
 * An instance that waited finds, once the first commits, nothing left to do.
 */
export async function runMigrationsThroughPooler(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'all';
    const applied = await executor.executePendingMigrations();
    await runner.commitTransaction();
    logApplied(applied);
  } catch (err) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw err;
  } finally {
    await runner.release();
  }
}

function logApplied(applied: { name: string }[]): void {
  if (applied.length) new Logger('Migrations').log(`applied ${applied.map((m) => m.name).join(', ')}`);
}
