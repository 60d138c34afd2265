import { decodeProtectedHeader } from 'jose';
import { Clock } from '../../src/common/clock';
import {
  NEXT_KEY_PUBLISHED_AHEAD_MS,
  RETIRED_KEYS_PUBLISHED_MS,
  SigningKeysService,
  SIGNING_KEY_ROTATION_MS,
} from '../../src/oauth/keys/signing-keys.service';
import type { TestApp } from '../support/app';
import { withMailingApp } from '../support/mailing-app';
import type { SmtpReceiver } from '../support/smtp-receiver';
import { anEndUser } from '../end-users/support';
import { aCode, anApplication, aPkcePair, aSignedInBrowser, exchange, verifiedIdToken } from './support';

/**
 * Rotation of the ID-token keys as a relying party sees it through the JWKS (issue 25, decision 0917).
 * Its own app: the clock moves by months. Each instance runs the key maintenance every minute; the
 * test runs that step itself after moving the clock, instead of waiting a minute.
 */
describe('OpenID provider: signing-key rotation', () => {
  let t: TestApp;
  let smtp: SmtpReceiver;
  withMailingApp((started) => ({ t, smtp } = started));

  const publishedRs256 = async () =>
    ((await t.http().get('/oauth/jwks').expect(200)).body.keys as { kid: string; alg: string }[])
      .filter((k) => k.alg === 'RS256')
      .map((k) => k.kid);

  it('publishes the next key before it signs, and keeps the old one published while its tokens live', async () => {
    const { app } = await anApplication(t);
    const user = await anEndUser(t, app as never, { smtp });
    const clock = t.get<Clock>(Clock);
    const keys = t.get<SigningKeysService>(SigningKeysService);
    const signIn = async () => {
      const agent = await aSignedInBrowser(t, user);
      const pkce = aPkcePair();
      const tokens = await exchange(t, app, await aCode(agent, app, pkce), pkce).expect(200);
      await verifiedIdToken(t, tokens.body.id_token as string, app);
      return { idToken: tokens.body.id_token as string, kid: decodeProtectedHeader(tokens.body.id_token as string).kid! };
    };

    // The worker's database may hold keys of suites before this one (other keyrings): only changes are compared.
    const before = await signIn();
    const initially = await publishedRs256();
    expect(initially).toContain(before.kid);

    // Not due yet: nothing changes.
    await keys.maintain();
    expect(await publishedRs256()).toEqual(initially);

    // Due: the next key is published at once, and does not sign yet.
    clock.advance(SIGNING_KEY_ROTATION_MS + 60_000);
    await keys.maintain();
    const published = await publishedRs256();
    const added = published.filter((kid) => !initially.includes(kid));
    expect(added).toHaveLength(1);
    expect(published).toEqual(expect.arrayContaining(initially));
    const [next] = added;
    expect((await signIn()).kid).toBe(before.kid);

    // Its time has come: it signs, and the old key stays published.
    clock.advance(NEXT_KEY_PUBLISHED_AHEAD_MS + 1_000);
    await keys.maintain();
    expect((await signIn()).kid).toBe(next);
    expect(await publishedRs256()).toEqual(expect.arrayContaining([before.kid, next]));
    // A relying party that fetches the JWKS now still verifies an ID token of the old key.
    await expect(verifiedIdToken(t, before.idToken, app)).resolves.toMatchObject({ aud: app.client_id });

    // A day later every token the old key signed has expired, and it is no longer published.
    clock.advance(RETIRED_KEYS_PUBLISHED_MS + 60_000);
    await keys.maintain();
    const lastly = await publishedRs256();
    expect(lastly).toContain(next);
    expect(lastly).not.toContain(before.kid);
    await expect(verifiedIdToken(t, before.idToken, app)).rejects.toThrow();
    expect((await signIn()).kid).toBe(next);
  });
});
