import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, anOAuthClient, aWorkspace, uniqueEmail } from '../support/factories';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * An attacker must not learn which emails have accounts from response times:
 * unknown emails are checked against a dummy hash. Medians of interleaved
 * samples must be within a small factor of each other.
 */
describe('sign-in timing does not reveal whether an account exists', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  async function sample(send: (email: string) => Promise<number>, known: string, rounds = 15) {
    const knownMs: number[] = [];
    const unknownMs: number[] = [];
    await send(known);
    for (let i = 0; i < rounds; i++) {
      const started = performance.now();
      expect(await send(known)).toBe(401);
      knownMs.push(performance.now() - started);
      const again = performance.now();
      expect(await send(uniqueEmail('ghost'))).toBe(401);
      unknownMs.push(performance.now() - again);
    }
    return median(unknownMs) / median(knownMs);
  }

  it('for developers', async () => {
    const dev = await aDeveloper(t);
    const ratio = await sample(
      async (email) => (await t.http().post('/developer/auth/login/').send({ email, password: 'wrong-password-1' })).status,
      dev.email,
    );
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.6);
  });

  it('for end users', async () => {
    const dev = await aDeveloper(t);
    const client = await anOAuthClient(t, dev, await aWorkspace(t, dev));
    const email = uniqueEmail('user');
    await t.http().post('/e/v1/auth/register/').send({ client_id: client.client_id, email, password: 'password-123' }).expect(201);
    const ratio = await sample(
      async (e) =>
        (await t.http().post('/e/v1/auth/login/').send({ client_id: client.client_id, email: e, password: 'wrong-password-1' })).status,
      email,
    );
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(1.6);
  });
});
