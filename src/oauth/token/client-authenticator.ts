import { Inject, Injectable } from '@nestjs/common';
import { decodeJwt } from 'jose';
import { safeEqual, sha256Hex } from '../../common/crypto/tokens';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { AssertionRefused, AssertionVerifier } from '../assertions/assertion-verifier';
import { OAuthClientDirectory } from '../clients/oauth-client-directory';
import type { AuthenticatedClient, ClientAuthMethod, RegisteredClient } from '../clients/registered-client';
import { OAuthError } from '../oauth.errors';

export const JWT_CLIENT_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** RFC 7523 §3 item 4 as decision 0903 profiles it: a client assertion expires at most 5 minutes ahead. */
const MAX_CLIENT_ASSERTION_SECONDS = 300;
const MAX_SECRET_CHARS = 512;

interface Presented {
  method: ClientAuthMethod;
  clientId: string;
  secret?: string;
  assertion?: string;
}

/**
 * Client authentication at the token endpoint (RFC 6749 §2.3): client_secret_basic,
 * client_secret_post, private_key_jwt (RFC 7523 §2.2), or none (a bare client_id, which the grant
 * or the client's registration must allow). One method per request. Unknown client and wrong
 * credential answer alike: 401 invalid_client.
 */
@Injectable()
export class ClientAuthenticator {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly directory: OAuthClientDirectory,
    private readonly assertions: AssertionVerifier,
  ) {}

  get tokenEndpoint(): string {
    return `${this.config.PUBLIC_BASE_URL}/oauth/token`;
  }

  async authenticate(authorization: string | undefined, params: Readonly<Record<string, string>>): Promise<AuthenticatedClient> {
    const presented = this.presented(authorization, params);
    const basic = presented.method === 'client_secret_basic';
    const failed = (why = 'client authentication failed') => new OAuthError('invalid_client', why, { basicChallenge: basic });
    const client = await this.directory.find(presented.clientId, params);
    if (!client) throw failed();
    if (presented.method !== 'none' && !client.authMethods.includes(presented.method)) {
      throw failed(`the client may not authenticate with ${presented.method}`);
    }
    switch (presented.method) {
      case 'client_secret_basic':
      case 'client_secret_post': {
        const secretId = matchingSecret(client, presented.secret!);
        if (!secretId) throw failed();
        return { client, method: presented.method, credential: `secret:${secretId}` };
      }
      case 'private_key_jwt': {
        if (!client.keys) throw failed('the client has no keys registered for private_key_jwt');
        try {
          await this.assertions.verify(presented.assertion!, {
            issuer: client.clientId,
            subject: client.clientId,
            audiences: [this.tokenEndpoint, this.config.PUBLIC_BASE_URL],
            keys: client.keys,
            maxSecondsAhead: MAX_CLIENT_ASSERTION_SECONDS,
            requireJti: true,
          });
        } catch (err) {
          if (err instanceof AssertionRefused) throw failed(`client assertion refused: ${err.message}`);
          throw err;
        }
        return { client, method: 'private_key_jwt', credential: 'key' };
      }
      case 'none':
        return { client, method: 'none', credential: 'none' };
    }
  }

  /** Which method the request uses, and its client id; more than one method is invalid_request. */
  private presented(authorization: string | undefined, params: Readonly<Record<string, string>>): Presented {
    const found: Presented[] = [];
    if (authorization !== undefined && /^basic /i.test(authorization)) {
      found.push({ method: 'client_secret_basic', ...decodeBasic(authorization.slice(6).trim()) });
    }
    if (params.client_secret !== undefined) {
      if (params.client_id === undefined) throw new OAuthError('invalid_request', 'client_secret without client_id');
      found.push({ method: 'client_secret_post', clientId: params.client_id, secret: params.client_secret });
    }
    if (params.client_assertion !== undefined || params.client_assertion_type !== undefined) {
      if (params.client_assertion_type !== JWT_CLIENT_ASSERTION || !params.client_assertion) {
        throw new OAuthError('invalid_request', `client_assertion needs client_assertion_type ${JWT_CLIENT_ASSERTION}`);
      }
      found.push({ method: 'private_key_jwt', clientId: assertionSubject(params.client_assertion), assertion: params.client_assertion });
    }
    if (found.length > 1) throw new OAuthError('invalid_request', 'use exactly one client authentication method');
    if (found.length === 0) {
      if (!params.client_id) throw new OAuthError('invalid_client', 'client authentication is required');
      return { method: 'none', clientId: params.client_id };
    }
    const [only] = found;
    if (params.client_id !== undefined && params.client_id !== only.clientId) {
      throw new OAuthError('invalid_request', 'client_id does not match the authenticated client');
    }
    if (only.secret !== undefined && only.secret.length > MAX_SECRET_CHARS) {
      throw new OAuthError('invalid_client', 'client authentication failed');
    }
    return only;
  }
}

/** RFC 6749 §2.3.1: client id and secret are form-urlencoded, then joined by ':' and base64'd. */
function decodeBasic(encoded: string): { clientId: string; secret: string } {
  const malformed = () => new OAuthError('invalid_client', 'malformed Basic credentials', { basicChallenge: true });
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const sep = decoded.indexOf(':');
  if (sep <= 0) throw malformed();
  try {
    const plus = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { clientId: plus(decoded.slice(0, sep)), secret: plus(decoded.slice(sep + 1)) };
  } catch {
    throw malformed();
  }
}

/** The client an assertion claims to be (its `sub`, RFC 7523 §3 item 2), read before it is verified. */
function assertionSubject(assertion: string): string {
  try {
    const { sub } = decodeJwt(assertion);
    if (typeof sub === 'string' && sub) return sub;
  } catch {
    // answered below
  }
  throw new OAuthError('invalid_client', 'client_assertion is not a JWT naming the client in sub');
}

/** The id of the live secret equal to `secret`, comparing against every one in constant time. */
function matchingSecret(client: RegisteredClient, secret: string): string | undefined {
  const hash = sha256Hex(secret);
  let match: string | undefined;
  for (const candidate of client.secrets) if (safeEqual(candidate.hash, hash)) match ??= candidate.id;
  return match;
}
