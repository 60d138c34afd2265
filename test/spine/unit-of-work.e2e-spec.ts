import { randomUUID } from 'node:crypto';
import { type Tx, UnitOfWork } from '../../src/database/unit-of-work';
import { createTestApp, TestApp } from '../support/app';

/**
 * What follows a commit (decision 0152): the hooks a unit of work registers run once it has
 * committed, before it returns, once per name, and never after a rollback. The job worker's
 * wake-up and the credential-cache evictions after a revocation ride on them.
 */
describe('the unit of work: after-commit hooks', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  beforeAll(async () => {
    t = await createTestApp();
    uow = t.get(UnitOfWork);
  });
  afterAll(() => t.close());

  const insertWorkspace = async (tx: Tx, name: string) => {
    await tx.query(`INSERT INTO workspaces (name) VALUES ($1)`, [name]);
  };
  const committed = async (name: string) =>
    ((await t.dataSource.query(`SELECT count(*)::int AS n FROM workspaces WHERE name = $1`, [name])) as { n: number }[])[0].n === 1;

  it('runs a hook after the change is committed, before run() returns', async () => {
    const name = `uow-${randomUUID()}`;
    const ran: string[] = [];
    await uow.run(async (tx, events) => {
      await insertWorkspace(tx, name);
      events.afterCommit('record', () => ran.push('hook'));
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['hook']);
    expect(await committed(name)).toBe(true);
  });

  it('runs each named hook once, in registration order, whichever way it was registered', async () => {
    const ran: string[] = [];
    await uow.run(async (tx, events) => {
      events.afterCommit('first', () => ran.push('first'));
      uow.afterCommit(tx, 'second', () => ran.push('second'));
      uow.afterCommit(tx, 'first', () => ran.push('first again'));
      await insertWorkspace(tx, `uow-${randomUUID()}`);
    });
    expect(ran).toEqual(['first', 'second']);
  });

  it('runs no hook when the work fails, and nothing is committed', async () => {
    const name = `uow-${randomUUID()}`;
    const ran: string[] = [];
    await expect(
      uow.run(async (tx, events) => {
        await insertWorkspace(tx, name);
        events.afterCommit('record', () => ran.push('hook'));
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(ran).toEqual([]);
    expect(await committed(name)).toBe(false);
  });

  it('keeps the committed result and the later hooks when a hook throws', async () => {
    const name = `uow-${randomUUID()}`;
    const ran: string[] = [];
    const result = await uow.run(async (tx, events) => {
      await insertWorkspace(tx, name);
      events.afterCommit('broken', () => {
        throw new Error('hook failure');
      });
      events.afterCommit('after it', () => ran.push('after it'));
      return 'done';
    });
    expect(result).toBe('done');
    expect(ran).toEqual(['after it']);
    expect(await committed(name)).toBe(true);
  });
});
