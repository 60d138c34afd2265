import { loadConfig } from '../config/config';
import { sessionDatabaseUrl } from './session-url';

const DIRECT = 'postgres://app@db:5432/identity';
const POOLED = 'postgres://app@pgbouncer:6432/identity';

describe('sessionDatabaseUrl', () => {
  it('is DATABASE_URL without a pooler, as before', () => {
    expect(sessionDatabaseUrl(loadConfig({ DATABASE_URL: DIRECT }))).toBe(DIRECT);
  });

  it('is DATABASE_DIRECT_URL when set, pooled or not', () => {
    expect(sessionDatabaseUrl(loadConfig({ DATABASE_URL: POOLED, DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: DIRECT }))).toBe(
      DIRECT,
    );
    expect(sessionDatabaseUrl(loadConfig({ DATABASE_URL: DIRECT, DATABASE_DIRECT_URL: DIRECT }))).toBe(DIRECT);
  });

  it('is none behind a transaction pooler without a direct URL, or with one that is the pooler itself', () => {
    expect(sessionDatabaseUrl(loadConfig({ DATABASE_URL: POOLED, DATABASE_POOLER: 'transaction' }))).toBeUndefined();
    expect(
      sessionDatabaseUrl(loadConfig({ DATABASE_URL: POOLED, DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: POOLED })),
    ).toBeUndefined();
  });

  it('is none for the embedded database', () => {
    expect(sessionDatabaseUrl(loadConfig({ DATABASE_POOLER: 'transaction' }))).toBeUndefined();
  });

  it('refuses an unknown pooler mode at boot', () => {
    expect(() => loadConfig({ DATABASE_URL: POOLED, DATABASE_POOLER: 'session' })).toThrow(/DATABASE_POOLER/);
  });
});
