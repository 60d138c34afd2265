import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import { Clock } from '../common/clock';
import { OAuthServerInfo } from '../oauth/discovery/oauth-server-info';
import { SigningKeysService } from '../oauth/keys/signing-keys.service';
import type { AppClient, ClaimsUser } from './oidc.repository';
import { acrFor, hasScope } from './scopes';

/** ID tokens live as long as an hour: they prove a sign-in, they are not credentials. */
export const ID_TOKEN_TTL_SECONDS = 3600;
const MAX_TOKEN_CHARS = 8192;

export interface IdTokenFacts {
  client: AppClient;
  user: ClaimsUser;
  scope: string;
  authTime: Date;
  amr: string[];
  nonce: string | null;
  /** The session the tokens belong to (OpenID Connect Front/Back-Channel Logout's `sid`). */
  sessionId: string;
}

/**
 * ID tokens (OpenID Connect Core §2), signed with the server's RS256 key (ES256 when the client
 * asks) from the published JWKS (decision 0901's keys and rotation), and the claims by scope
 * that ID tokens and UserInfo share.
 */
@Injectable()
export class IdTokensService implements OnModuleInit {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly server: OAuthServerInfo,
    private readonly clock: Clock,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.keys.ensureKey('RS256');
    await this.keys.ensureKey('ES256');
  }

  async sign(facts: IdTokenFacts): Promise<string> {
    const key = this.keys.signingKey(facts.client.idTokenAlg);
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({
      ...userClaims(facts.client, facts.user, facts.scope),
      auth_time: Math.floor(facts.authTime.getTime() / 1000),
      ...(facts.nonce !== null ? { nonce: facts.nonce } : {}),
      amr: facts.amr,
      acr: acrFor(facts.amr),
      azp: facts.client.clientId,
      sid: facts.sessionId,
    })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
      .setIssuer(this.server.issuer)
      .setAudience(facts.client.clientId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ID_TOKEN_TTL_SECONDS)
      .sign(key.privateKey);
  }

  /**
   * An ID token this server issued, as id_token_hint (RP-Initiated Logout 1.0 §2): signature and
   * issuer checked, expiry not (a hint may be old); null for anything else.
   */
  async readHint(token: string): Promise<{ aud: string; sub: string; sid: string | null } | null> {
    if (token.length > MAX_TOKEN_CHARS) return null;
    try {
      const { kid } = decodeProtectedHeader(token);
      if (typeof kid !== 'string') return null;
      const key = await this.keys.verificationKey(kid);
      if (!key || key.alg === 'EdDSA') return null;
      const { payload } = await jwtVerify(token, key.key, {
        algorithms: [key.alg],
        issuer: this.server.issuer,
        // A hint may have expired long ago (OpenID RP-Initiated Logout 1.0 §2): ten years of tolerance.
        clockTolerance: 10 * 365 * 24 * 3600,
      });
      if (typeof payload.aud !== 'string' || typeof payload.sub !== 'string') return null;
      return { aud: payload.aud, sub: payload.sub, sid: typeof payload.sid === 'string' ? payload.sid : null };
    } catch (err) {
      if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }
}

/** `sub`: the user id, or for a pairwise client an HMAC of it under the client's own key (OpenID Connect Core §8.1). */
export function subjectFor(client: AppClient, userId: string): string {
  if (client.subjectType === 'public') return userId;
  return createHmac('sha256', client.pairwiseSalt).update(userId).digest('base64url');
}

/** The claims a scope releases (OpenID Connect Core §5.4): sub always; email and profile on request. */
export function userClaims(client: AppClient, user: ClaimsUser, scope: string): Record<string, string | boolean> {
  const claims: Record<string, string | boolean> = { sub: subjectFor(client, user.id) };
  if (hasScope(scope, 'email')) {
    claims.email = user.email;
    claims.email_verified = user.emailVerified;
  }
  if (hasScope(scope, 'profile')) {
    const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
    if (name) claims.name = name;
    if (user.firstName) claims.given_name = user.firstName;
    if (user.lastName) claims.family_name = user.lastName;
  }
  return claims;
}
