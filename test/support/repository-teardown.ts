import { dropWorkerDatabases } from './databases';

/** Global teardown of the repository project: drops the per-worker databases (again, harmlessly, after an e2e teardown). */
export default async function repositoryTeardown(): Promise<void> {
  await dropWorkerDatabases();
}
