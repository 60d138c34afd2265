import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { prepareWorkerDatabases } from './databases';

/**
 * Global setup of the repository project: the same per-worker databases as the e2e project
 * (a migrated template, cloned per worker), made once when one run holds both projects.
 */
export default async function repositorySetup(): Promise<void> {
  process.env.TEST_ROOT_DIR ??= process.cwd();
  Logger.overrideLogger(false);
  await prepareWorkerDatabases();
}
