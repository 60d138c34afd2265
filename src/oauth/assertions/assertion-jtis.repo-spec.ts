import { randomUUID } from 'node:crypto';
import { repositoriesForSuite } from '../../../test/support/repository';
import { AssertionJtisRepository } from './assertion-jtis.repository';

describe('AssertionJtisRepository', () => {
  let jtis: AssertionJtisRepository;
  repositoriesForSuite([AssertionJtisRepository], (booted) => (jtis = booted));

  const inAnHour = () => new Date(Date.now() + 3600_000);

  it('claims an assertion id once: the replay is refused, also when both race', async () => {
    const [issuer, jti] = [`https://issuer-${randomUUID()}.example`, randomUUID()];
    const claims = await Promise.all([1, 2, 3].map(() => jtis.claim(issuer, jti, inAnHour())));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await jtis.claim(issuer, jti, inAnHour())).toBe(false);
  });

  it('keeps the same id of two issuers apart', async () => {
    const jti = randomUUID();
    expect(await jtis.claim(`https://a-${jti}.example`, jti, inAnHour())).toBe(true);
    expect(await jtis.claim(`https://b-${jti}.example`, jti, inAnHour())).toBe(true);
  });

  it('purges expired claims, after which the id could be claimed again', async () => {
    const [issuer, jti] = [`https://issuer-${randomUUID()}.example`, randomUUID()];
    const expiresAt = new Date(Date.now() + 1000);
    expect(await jtis.claim(issuer, jti, expiresAt)).toBe(true);
    await jtis.purgeExpired(new Date(expiresAt.getTime() + 1));
    expect(await jtis.claim(issuer, jti, inAnHour())).toBe(true);
  });
});
