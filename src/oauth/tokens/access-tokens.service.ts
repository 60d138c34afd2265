import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import { Clock } from '../../common/clock';
import { APP_CONFIG, AppConfig } from '../../config/config';
import type { AuthenticatedClient } from '../clients/registered-client';
import { SigningKeysService } from '../keys/signing-keys.service';

/** What an access token of this server says (RFC 9068 names, plus our short private claims). */
export interface AccessTokenClaims {
  jti: string;
  /** The public client_id (RFC 9068 §2.2: `sub` of a client-credentials token is the client). */
  clientId: string;
  /** Row id of the client in its store (`cid`). */
  clientRowId: string;
  /** The store's kind (`ckd`): 'scim', later 'application'. */
  clientKind: string;
  workspaceId: string;
  scope: string;
  /** The credential it was issued under (`crd`): `secret:<id>`, `key`, `federation`, `none`. */
  credential: string;
  issuedAt: Date;
  expiresAt: Date;
}

const TYPE = 'at+jwt';
const MAX_TOKEN_CHARS = 4096;

/**
 * Access tokens of the authorization server (RFC 9068 JWTs, EdDSA): signed and checked with the
 * in-memory key set, no database round trip. Revocation is the resource's business: the claims
 * name the client and the credential, which the resource checks against its revocation cache.
 */
@Injectable()
export class AccessTokensService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly keys: SigningKeysService,
    private readonly clock: Clock,
  ) {}

  get issuer(): string {
    return this.config.PUBLIC_BASE_URL;
  }

  get lifetimeSeconds(): number {
    return this.config.OAUTH_ACCESS_TOKEN_TTL_SECONDS;
  }

  async issue(grant: AuthenticatedClient, scope: string): Promise<{ token: string; claims: AccessTokenClaims }> {
    const { client } = grant;
    const key = this.keys.signingKey('EdDSA');
    const now = this.clock.now();
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + this.lifetimeSeconds;
    const jti = randomUUID();
    const token = await new SignJWT({
      client_id: client.clientId,
      scope,
      wid: client.workspaceId,
      cid: client.id,
      ckd: client.kind,
      crd: grant.credential,
    })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: TYPE })
      .setIssuer(this.issuer)
      .setSubject(client.clientId)
      .setAudience(client.audience)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(key.privateKey);
    return {
      token,
      claims: {
        jti,
        clientId: client.clientId,
        clientRowId: client.id,
        clientKind: client.kind,
        workspaceId: client.workspaceId,
        scope,
        credential: grant.credential,
        issuedAt: new Date(iat * 1000),
        expiresAt: new Date(exp * 1000),
      },
    };
  }

  /** The claims of a token of ours for `audience`, unexpired and correctly signed; null for anything else. */
  async verify(token: string, audience: string): Promise<AccessTokenClaims | null> {
    if (token.length > MAX_TOKEN_CHARS) return null;
    try {
      const { kid } = decodeProtectedHeader(token);
      if (typeof kid !== 'string') return null;
      const key = await this.keys.verificationKey(kid);
      if (!key) return null;
      const { payload } = await jwtVerify(token, key.key, {
        algorithms: [key.alg],
        issuer: this.issuer,
        audience,
        typ: TYPE,
        currentDate: this.clock.now(),
        requiredClaims: ['sub', 'jti', 'exp', 'iat'],
      });
      const { jti, sub, iat, exp, scope, wid, cid, ckd, crd } = payload;
      if (!jti || !sub || !iat || !exp) return null;
      if (![scope, wid, cid, ckd, crd].every((v) => typeof v === 'string')) return null;
      return {
        jti,
        clientId: sub,
        clientRowId: cid as string,
        clientKind: ckd as string,
        workspaceId: wid as string,
        scope: scope as string,
        credential: crd as string,
        issuedAt: new Date(iat * 1000),
        expiresAt: new Date(exp * 1000),
      };
    } catch (err) {
      if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }
}
