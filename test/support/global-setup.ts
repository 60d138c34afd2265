import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { runMigrations } from '../../src/database/migrate';
import { ensureBuilt, runSpawnsInstances } from './build';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS script shared with npm start
const { buildIfStale } = require('../../scripts/build-if-stale.js') as { buildIfStale: (target: 'console') => number };
import { databasePrefix, databaseUrl, recreateDatabase, withAdmin, WORKER_SLOTS } from './databases';

/**
 * Migrates a template database once per run, then clones one fresh database per
 * Jest worker from it (CREATE DATABASE … TEMPLATE is a file copy: fast). When the run includes a
 * suite that starts the service as a process, dist/ is built first (if stale), before any test's
 * clock starts.
 */
export default async function globalSetup(globalConfig: { testPathPattern?: string }): Promise<void> {
  const building = runSpawnsInstances(globalConfig.testPathPattern) ? ensureBuilt() : Promise.resolve();
  process.env.TEST_ROOT_DIR ??= process.cwd();
  // The console's browser suites (test/console) need console/dist: built once here when stale (a few seconds).
  if (buildIfStale('console') !== 0) throw new Error('building the developer console (console/) failed');
  Logger.overrideLogger(false);
  process.env.TEST_LOG_DIR ??= mkdtempSync(join(tmpdir(), 'idsvc-test-logs-'));
  // Every Redis key of this run lives under test:<run id>: (test/support/redis-keys.ts); teardown deletes them.
  process.env.TEST_REDIS_RUN_ID ??= randomUUID();
  const template = `${databasePrefix()}_template`;
  await withAdmin((client) => recreateDatabase(client, template));
  const dataSource = await new DataSource(
    dataSourceOptions({ url: databaseUrl(template), embedded: false, poolSize: 2, statementTimeoutMs: 0 }),
  ).initialize();
  try {
    await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
  await withAdmin(async (client) => {
    for (let slot = 1; slot <= WORKER_SLOTS; slot++) await recreateDatabase(client, `${databasePrefix()}_w${slot}`, template);
  });
  await building;
}
