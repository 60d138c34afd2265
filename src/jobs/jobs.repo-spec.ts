import { randomUUID } from 'node:crypto';
import { repositoriesForSuite } from '../../test/support/repository';
import { JobsRepository } from './jobs.repository';

/** jobs is not tenant data (payloads name their workspace): its contract is the queue's. */
describe('JobsRepository', () => {
  let jobs: JobsRepository;
  const db = repositoriesForSuite([JobsRepository], (booted) => (jobs = booted));

  it('gives a due job to one worker only, counts the attempt, and takes it back when released', async () => {
    const queue = `repo-spec-${randomUUID()}`;
    const id = await db.dataSource.transaction((tx) => jobs.enqueue(tx, { queue, payload: { n: 1 }, maxAttempts: 3 }));
    const [one, two] = await Promise.all([jobs.claim([queue], 'w1', 60_000), jobs.claim([queue], 'w2', 60_000)]);
    const claimed = one ?? two;
    expect(claimed).toEqual({ id, queue, payload: { n: 1 }, attempts: 1, maxAttempts: 3 });
    expect(one && two).toBeUndefined();
    const holder = one ? 'w1' : 'w2';
    await jobs.release(id, 'someone-else', { final: false, error: 'not theirs', delayMs: 0 });
    expect(await jobs.claim([queue], 'w3', 60_000)).toBeUndefined();
    await jobs.release(id, holder, { final: false, error: 'try again', delayMs: 0 });
    expect(await jobs.claim([queue], 'w3', 60_000)).toMatchObject({ id, attempts: 2 });
  });

  it('leaves a job enqueued in a rolled-back transaction unseen', async () => {
    const queue = `repo-spec-${randomUUID()}`;
    await expect(
      db.dataSource.transaction(async (tx) => {
        await jobs.enqueue(tx, { queue, payload: {}, maxAttempts: 1 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await jobs.claim([queue], 'w1', 60_000)).toBeUndefined();
  });
});
