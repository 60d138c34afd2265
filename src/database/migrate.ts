import { Logger } from '@nestjs/common';
import { DataSource, MigrationExecutor } from 'typeorm';

/** Arbitrary but fixed: the advisory lock that serializes migrations across instances. */
const MIGRATION_LOCK = 7_366_221_001;

/**
 * Runs pending migrations under a session advisory lock, so instances that start
 * at the same moment migrate once: the others wait, then find nothing to do.
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
    if (applied.length) new Logger('Migrations').log(`applied ${applied.map((m) => m.name).join(', ')}`);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
