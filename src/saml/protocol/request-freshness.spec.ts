import { execFileSync } from 'node:child_process';
import { replayWindowEnd, requestFreshness, samlInstant } from './request-freshness';

const now = new Date('2030-01-01T12:00:00.000Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();

describe('AuthnRequest freshness', () => {
  it('accepts an IssueInstant from 5 min 30 s ago to 30 s ahead, edges included', () => {
    for (const offset of [-330_000, -300_000, -1000, 0, 30_000]) expect(requestFreshness(at(offset), now)).toEqual({ fresh: true });
  });

  it('refuses an older one as stale and a later one as early, saying why', () => {
    expect(requestFreshness(at(-330_001), now)).toMatchObject({
      fresh: false,
      reason: 'stale_request',
      message: /more than 5 minutes ago/,
    });
    expect(requestFreshness('2001-01-01T00:00:00Z', now)).toMatchObject({ fresh: false, reason: 'stale_request' });
    expect(requestFreshness(at(30_001), now)).toMatchObject({ fresh: false, reason: 'early_request', message: /in the future/ });
  });

  it('reads time zones: the same instant written with an offset is the same instant', () => {
    expect(requestFreshness('2030-01-01T13:00:00+01:00', now)).toEqual({ fresh: true });
    expect(requestFreshness('2030-01-01T11:50:00-00:00', now)).toMatchObject({ reason: 'stale_request' });
  });

  it('reads an IssueInstant without a zone as UTC (saml-core §1.3.3), whatever the zone of the server', () => {
    // A process of its own: the zone is fixed when Node starts (a test cannot change it for itself).
    const script = `console.log(require('./request-freshness').samlInstant('2030-01-01T12:00:00'))`;
    for (const zone of ['UTC', 'America/New_York', 'Asia/Tokyo']) {
      const printed = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
        cwd: __dirname,
        env: { ...process.env, TZ: zone },
      });
      expect(Number(printed.toString().trim())).toBe(Date.UTC(2030, 0, 1, 12));
    }
    expect(samlInstant('2030-01-01T13:00:00+01:00')).toBe(Date.UTC(2030, 0, 1, 12));
  });

  it('remembers a used ID at least until any request carrying it has gone stale', () => {
    // The latest accepted IssueInstant is now + 30 s; it is stale after 5 min 30 s more.
    const latestStale = now.getTime() + 30_000 + 330_000;
    expect(replayWindowEnd(now).getTime()).toBeGreaterThanOrEqual(latestStale);
  });
});
