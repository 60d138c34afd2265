import { randomUUID, webcrypto } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

/** What an end-user access token says. Short names keep the token small; the codec maps them. */
export interface AccessTokenClaims {
  userId: string;
  sessionId: string;
  workspaceId: string;
  oauthClientId: string | null;
  /** RFC 8176 authentication methods of the session (decision 0313). */
  amr: string[];
  jti: string;
  expiresAt: Date;
}

/** The acr of a session: REFEDS's multi-factor profile when a second factor was used, else single-factor. */
export const ACR_MFA = 'https://refeds.org/profile/mfa';
export const ACR_SFA = 'https://refeds.org/profile/sfa';
export const acrFor = (amr: readonly string[]): string => (amr.includes('mfa') ? ACR_MFA : ACR_SFA);

const ISSUER = 'identity-service';
const AUDIENCE = 'end-user';
const ALG = 'HS256';

/**
 * Signs and verifies end-user access tokens (HS256 via jose). The clock is passed in, so tests move
 * time instead of sleeping. Only HS256 is accepted: a token with `alg: none` or RS256 is refused.
 */
export class AccessTokenCodec {
  /**
   * Imported once as a WebCrypto key (non-extractable): jose signs and verifies with WebCrypto, and
   * given a KeyObject or bytes it exports and imports the secret again on every call (jose 6 on
   * Node 20, which has no KeyObject.toCryptoKey), a measurable part of a code exchange (decision 0920).
   */
  private readonly key: Promise<webcrypto.CryptoKey>;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    if (Buffer.byteLength(secret) < 32) throw new Error('AUTH_JWT_SECRET must be at least 32 bytes');
    this.key = webcrypto.subtle.importKey('raw', Buffer.from(secret, 'utf8'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  get lifetimeSeconds(): number {
    return this.ttlSeconds;
  }

  async sign(
    subject: Omit<AccessTokenClaims, 'jti' | 'expiresAt' | 'amr'> & { amr?: string[] },
    now: Date,
  ): Promise<{ token: string; jti: string; expiresAt: Date }> {
    const jti = randomUUID();
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + this.ttlSeconds;
    const amr = subject.amr ?? ['pwd'];
    const token = await new SignJWT({ sid: subject.sessionId, wid: subject.workspaceId, cid: subject.oauthClientId, amr, acr: acrFor(amr) })
      .setProtectedHeader({ alg: ALG, typ: 'JWT' })
      .setSubject(subject.userId)
      .setJti(jti)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(await this.key);
    return { token, jti, expiresAt: new Date(exp * 1000) };
  }

  /** The claims of a valid token, or null for anything expired, forged or malformed. */
  async verify(token: string, now: Date): Promise<AccessTokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, {
        algorithms: [ALG],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: now,
        requiredClaims: ['sub', 'jti', 'exp', 'sid', 'wid'],
      });
      const { sub, jti, exp, sid, wid, cid, amr } = payload;
      if (typeof sid !== 'string' || typeof wid !== 'string' || !sub || !jti || !exp) return null;
      return {
        userId: sub,
        sessionId: sid,
        workspaceId: wid,
        oauthClientId: typeof cid === 'string' ? cid : null,
        amr: Array.isArray(amr) && amr.every((v) => typeof v === 'string') ? (amr as string[]) : ['pwd'],
        jti,
        expiresAt: new Date(exp * 1000),
      };
    } catch (err) {
      if (err instanceof errors.JOSEError) return null;
      throw err;
    }
  }
}
