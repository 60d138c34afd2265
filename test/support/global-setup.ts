import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, runSpawnsInstances } from './build';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS script shared with npm start
const { buildIfStale } = require('../../scripts/build-if-stale.js') as { buildIfStale: (target: 'console') => Promise<number> };
import { prepareWorkerDatabases } from './databases';

/**
 * The per-worker databases (prepareWorkerDatabases: a migrated template, cloned). When the run includes a
 * suite that starts the service as a process, dist/ is built first (if stale), before any test's
 * clock starts.
 */
export default async function globalSetup(globalConfig: { testPathPattern?: string }): Promise<void> {
  const building = runSpawnsInstances(globalConfig.testPathPattern) ? ensureBuilt() : Promise.resolve();
  process.env.TEST_ROOT_DIR ??= process.cwd();
  // The console's browser suites (test/console) need console/dist: built once here when stale (a few seconds).
  if ((await buildIfStale('console')) !== 0) throw new Error('building the developer console (console/) failed');
  Logger.overrideLogger(false);
  process.env.TEST_LOG_DIR ??= mkdtempSync(join(tmpdir(), 'idsvc-test-logs-'));
  // Every Redis key of this run lives under test:<run id>: (test/support/redis-keys.ts); teardown deletes them.
  process.env.TEST_REDIS_RUN_ID ??= randomUUID();
  await prepareWorkerDatabases();
  await building;
}
