import { createHash } from 'node:crypto';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ScriptCachedThrottlerStorage } from './script-cached-throttler-storage';
import { redisClientsForSuite } from '../../../test/support/redis-keys';

/** The sign-in rate limits' Redis storage, against the live Redis (decision 0328). */
describe('ScriptCachedThrottlerStorage', () => {
  const client = redisClientsForSuite();

  it('counts hits and blocks past the limit, as the library it replaces does', async () => {
    const ours = new ScriptCachedThrottlerStorage(client());
    const library = new ThrottlerStorageRedisService(client());
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await ours.increment('ip:1', 60_000, 3, 60_000, 'login'));
    expect(answers.map((a) => [a.totalHits, a.isBlocked])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
    expect(answers[3].timeToBlockExpire).toBeGreaterThan(0);
    expect(answers[3].timeToBlockExpire).toBeLessThanOrEqual(60);
    // Same keys and script: the library's EVAL sees the count ours left.
    const next = await library.increment('ip:1', 60_000, 3, 60_000, 'login');
    expect([next.totalHits, next.isBlocked]).toEqual([5, true]);
  });

  it('shares one count between instances, and keeps counting after Redis forgot its scripts', async () => {
    const a = new ScriptCachedThrottlerStorage(client());
    const b = new ScriptCachedThrottlerStorage(client());
    expect((await a.increment('acct:x', 60_000, 10, 60_000, 'mfa')).totalHits).toBe(1);
    expect((await b.increment('acct:x', 60_000, 10, 60_000, 'mfa')).totalHits).toBe(2);
    // A restarted Redis has no scripts: the next EVALSHA fails with NOSCRIPT and ioredis loads it again.
    await client().script('FLUSH');
    expect((await a.increment('acct:x', 60_000, 10, 60_000, 'mfa')).totalHits).toBe(3);
  });

  it('sends the script by its digest once Redis has it', async () => {
    const redis = client();
    const storage = new ScriptCachedThrottlerStorage(redis);
    await storage.increment('ip:2', 60_000, 5, 60_000, 'login');
    const sha = createHash('sha1').update(storage.scriptSrc).digest('hex');
    expect(await redis.script('EXISTS', sha)).toEqual([1]);
    const sent: string[] = [];
    const original = redis.sendCommand.bind(redis);
    redis.sendCommand = ((command: { name: string }) => {
      sent.push(command.name);
      return original(command as never);
    }) as typeof redis.sendCommand;
    await storage.increment('ip:2', 60_000, 5, 60_000, 'login');
    expect(sent).toEqual(['evalsha']);
  });
});
