import { SignJWT, UnsecuredJWT } from 'jose';
import { AccessTokenCodec } from './access-token.codec';

const SECRET = 'a'.repeat(48);
const subject = { userId: 'u1', sessionId: 's1', workspaceId: 'w1', oauthClientId: 'c1' };
const t0 = new Date('2026-01-01T00:00:00Z');

describe('AccessTokenCodec', () => {
  const codec = new AccessTokenCodec(SECRET, 900);

  it('round-trips the claims', async () => {
    const { token, jti } = await codec.sign(subject, t0);
    expect(await codec.verify(token, t0)).toEqual({
      ...subject,
      amr: ['pwd'],
      jti,
      expiresAt: new Date(t0.getTime() + 900_000),
    });
  });

  it('carries the RFC 8176 methods and the acr they meet', async () => {
    const { token } = await codec.sign({ ...subject, amr: ['pwd', 'otp', 'mfa'] }, t0);
    expect(await codec.verify(token, t0)).toMatchObject({ amr: ['pwd', 'otp', 'mfa'] });
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    expect(payload).toMatchObject({ amr: ['pwd', 'otp', 'mfa'], acr: 'https://refeds.org/profile/mfa' });
  });

  it('refuses an expired token when the clock moves past its lifetime', async () => {
    const { token } = await codec.sign(subject, t0);
    expect(await codec.verify(token, new Date(t0.getTime() + 899_000))).not.toBeNull();
    expect(await codec.verify(token, new Date(t0.getTime() + 901_000))).toBeNull();
  });

  it('refuses a token signed with another key', async () => {
    const other = new AccessTokenCodec('b'.repeat(48), 900);
    const { token } = await other.sign(subject, t0);
    expect(await codec.verify(token, t0)).toBeNull();
  });

  it('refuses alg none and tokens from another issuer', async () => {
    const unsigned = new UnsecuredJWT({ sid: 's1', wid: 'w1' }).setSubject('u1').setJti('j').setExpirationTime('1h').encode();
    expect(await codec.verify(unsigned, new Date())).toBeNull();
    const foreign = await new SignJWT({ sid: 's1', wid: 'w1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setJti('j')
      .setIssuer('someone-else')
      .setAudience('end-user')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await codec.verify(foreign, new Date())).toBeNull();
  });

  it('refuses garbage', async () => {
    expect(await codec.verify('not.a.jwt', t0)).toBeNull();
    expect(await codec.verify('', t0)).toBeNull();
  });

  it('insists on a long secret', () => {
    expect(() => new AccessTokenCodec('short', 900)).toThrow(/32 bytes/);
  });
});
