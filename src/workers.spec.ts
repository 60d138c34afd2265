import { workerCount } from './workers';

describe('workerCount (processes serving the port)', () => {
  const remote = 'postgres://identity@db.internal:5432/identity';

  it('is WEB_CONCURRENCY when set', () => {
    expect(workerCount({ DATABASE_URL: remote, WEB_CONCURRENCY: 3 }, 8)).toBe(3);
    expect(workerCount({ DATABASE_URL: 'postgres://localhost/identity', WEB_CONCURRENCY: 2 }, 2)).toBe(2);
  });

  it('is one per core when PostgreSQL runs elsewhere', () => {
    expect(workerCount({ DATABASE_URL: remote, WEB_CONCURRENCY: 0 }, 2)).toBe(2);
    expect(workerCount({ DATABASE_URL: remote, WEB_CONCURRENCY: 0 }, 8)).toBe(8);
  });

  it('leaves PostgreSQL a core when it runs on this host: one process on two cores', () => {
    for (const url of [
      'postgres://identity@127.0.0.1:5432/identity',
      'postgres://identity@localhost/identity',
      'postgres://identity@[::1]:5432/identity',
      'postgres:///identity?host=/var/run/postgresql',
    ]) {
      expect(workerCount({ DATABASE_URL: url, WEB_CONCURRENCY: 0 }, 2)).toBe(1);
      expect(workerCount({ DATABASE_URL: url, WEB_CONCURRENCY: 0 }, 8)).toBe(7);
    }
    expect(workerCount({ DATABASE_URL: 'postgres://localhost/identity', WEB_CONCURRENCY: 0 }, 1)).toBe(1);
  });

  it('keeps one process for the embedded database, whatever is asked', () => {
    expect(workerCount({ DATABASE_URL: undefined, WEB_CONCURRENCY: 4 } as never, 8)).toBe(1);
  });
});
