import { Client } from 'pg';
import { MAIL_QUEUE } from '../../src/mail/mail.service';
import { databaseUrl, workerDatabaseName } from './databases';
import { eventually } from './eventually';

/**
 * Until no mail job of this worker's database is waiting or running: after that no further
 * message can come out of the queue, so a test may assert how many were sent (exactly one after
 * a crash, none for a disabled alert). Works for in-process apps and spawned instances alike.
 */
export async function mailQueueSettled(timeoutMs = 30_000): Promise<void> {
  const client = new Client({ connectionString: databaseUrl(workerDatabaseName()) });
  await client.connect();
  try {
    await eventually(
      async () => {
        const { rows } = await client.query<{ open: number }>(
          `SELECT count(*)::int AS open FROM jobs WHERE queue = $1 AND status IN ('pending', 'running')`,
          [MAIL_QUEUE],
        );
        if (rows[0].open > 0) throw new Error(`${rows[0].open} mail job(s) still waiting or running`);
      },
      { timeoutMs, intervalMs: 50 },
    );
  } finally {
    await client.end();
  }
}
