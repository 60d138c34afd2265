import { Inject, Injectable } from '@nestjs/common';
import { createPrivateKey, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { Clock } from '../../common/clock';
import { SecretBox } from '../../common/crypto/secret-box';
import { sha256Hex } from '../../common/crypto/tokens';
import type { RequestMeta } from '../../common/request-context';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import type { BrowserSession } from '../../hosted-login/browser-sessions.service';
import type { SsoConnection } from '../entities/sso-connection.entity';
import { connectionUrls } from '../sso-connection-views';
import { SsoConnectionsRepository } from '../sso-connections.repository';
import { UpstreamRefusal } from '../upstream-refusals';
import { UpstreamSignInResult, UpstreamSignInService } from '../upstream-sign-in.service';
import { guardedFetch } from './guarded-fetch';
import { refusalOf } from './oidc-refusals';

/** How long the provider has to answer (decision 0412). */
export const OIDC_FLOW_TTL_MS = 10 * 60 * 1000;
/** How long a provider's discovery document is reused before it is fetched again. */
const DISCOVERY_TTL_MS = 10 * 60 * 1000;
/** amr values that mean a second factor (RFC 8176). */
const MFA_AMR = new Set(['mfa', 'otp', 'hwk', 'swk', 'sms', 'tel', 'fpt', 'face', 'iris', 'retina', 'sc', 'pin']);

/** Where the start of a sign-in sends the browser, and the flow cookie that binds the answer to it. */
export type OidcStart = { kind: 'redirect'; location: string; flowCookie: string } | UpstreamSignInResult;

/**
 * The OpenID Connect half of enterprise SSO (docs/sso-connections.md): we are the relying party,
 * with openid-client doing the protocol (discovery, code flow with PKCE, state, nonce, RFC 9207
 * iss, the ID token's signature from the provider's JWKS, its audience, issuer and lifetime).
 * Every outbound request goes through the SSRF guard. The answer ends in completeUpstreamSignIn.
 */
@Injectable()
export class OidcUpstreamService {
  private readonly box: SecretBox;
  private readonly configurations = new Map<string, { config: client.Configuration; until: number; version: string }>();

  constructor(
    private readonly connections: SsoConnectionsRepository,
    private readonly upstream: UpstreamSignInService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.box = new SecretBox(config.SECRETS_ENCRYPTION_KEY!);
  }

  /** Redirects the browser to the provider with a new flow bound to it (its flow cookie, kept if it has one). */
  async start(connection: SsoConnection, next: string, flowCookie: unknown, request: RequestMeta): Promise<OidcStart> {
    let config: client.Configuration;
    try {
      config = await this.configuration(connection);
    } catch (err) {
      return this.upstream.refuse(connection, refusalOf(err), request);
    }
    const browserToken =
      typeof flowCookie === 'string' && /^[A-Za-z0-9_-]{43}$/.test(flowCookie) ? flowCookie : randomBytes(32).toString('base64url');
    const state = client.randomState();
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    const now = this.clock.now();
    await this.connections.insertFlow(connection.workspaceId, {
      stateHash: sha256Hex(state),
      connectionId: connection.id,
      browserHash: sha256Hex(browserToken),
      nonce,
      codeVerifierEncrypted: this.box.encrypt(verifier),
      next,
      createdAt: now,
      expiresAt: new Date(now.getTime() + OIDC_FLOW_TTL_MS),
    });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(connection),
      scope: ['openid', ...connection.oidcScopes].join(' '),
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    return { kind: 'redirect', location: url.href, flowCookie: browserToken };
  }

  /**
   * The provider's answer at our redirect URI. The state must name a flow of this connection started
   * in this browser and not spent yet; then openid-client checks iss, exchanges the code with the
   * PKCE verifier and validates the ID token (signature, iss, aud, nonce, lifetime).
   */
  async callback(
    connection: SsoConnection,
    currentUrl: URL,
    flowCookie: unknown,
    request: RequestMeta,
    previous: BrowserSession | null,
  ): Promise<UpstreamSignInResult> {
    const refuse = (reason: UpstreamRefusal) => this.upstream.refuse(connection, reason, request);
    const state = currentUrl.searchParams.get('state');
    if (!state || state.length > 512) return refuse(new UpstreamRefusal('state_mismatch', 'no state'));
    const flow = await this.connections.flowByState(sha256Hex(state));
    if (!flow || flow.connectionId !== connection.id) return refuse(new UpstreamRefusal('state_mismatch', 'unknown state'));
    if (typeof flowCookie !== 'string' || sha256Hex(flowCookie) !== flow.browserHash) {
      return refuse(new UpstreamRefusal('state_mismatch', 'state started in another browser'));
    }
    const now = this.clock.now();
    if (flow.usedAt) return refuse(new UpstreamRefusal('response_replayed', 'state already used'));
    if (flow.expiresAt <= now) return refuse(new UpstreamRefusal('state_mismatch', 'sign-in expired'));
    if (!(await this.connections.spendFlow(flow.workspaceId, flow.stateHash, now))) {
      return refuse(new UpstreamRefusal('response_replayed', 'state already used'));
    }
    let claims: client.IDToken;
    try {
      const config = await this.configuration(connection);
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: this.box.decrypt(flow.codeVerifierEncrypted),
        expectedState: state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims()!;
    } catch (err) {
      return refuse(refusalOf(err));
    }
    const mapping = connection.mapping;
    const text = (name: string | undefined, fallback: string) => {
      const value = claims[name ?? fallback];
      return typeof value === 'string' ? value : null;
    };
    const groups = claims[mapping.groups ?? 'groups'];
    const amr = Array.isArray(claims.amr) ? claims.amr.filter((v): v is string => typeof v === 'string') : [];
    return this.upstream.completeUpstreamSignIn(
      connection,
      {
        issuer: claims.iss,
        subject: claims.sub,
        email: text(mapping.email, 'email'),
        emailVerified: claims.email_verified === true,
        firstName: text(mapping.given_name, 'given_name'),
        lastName: text(mapping.family_name, 'family_name'),
        groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string').slice(0, 200) : [],
        upstreamMfa: amr.some((v) => MFA_AMR.has(v)),
      },
      { request, next: flow.next, previous },
    );
  }

  /** Our public key for private_key_jwt (the connection's jwks_uri), or null when the connection uses a secret. */
  publicKeys(connection: SsoConnection): { keys: Record<string, unknown>[] } | null {
    if (!connection.oidcPrivateKeyEncrypted) return null;
    const jwk = JSON.parse(this.box.decrypt(connection.oidcPrivateKeyEncrypted)) as Record<string, unknown>;
    const { d: _d, ...publicJwk } = jwk;
    return { keys: [publicJwk] };
  }

  private redirectUri(connection: SsoConnection): string {
    return connectionUrls(this.config.PUBLIC_BASE_URL, connection).redirect_uri!;
  }

  /** The provider's discovered configuration with our client authentication, cached per connection version. */
  private async configuration(connection: SsoConnection): Promise<client.Configuration> {
    const version = connection.updatedAt.toISOString();
    const cached = this.configurations.get(connection.id);
    if (cached && cached.version === version && cached.until > Date.now()) return cached.config;
    const allowPrivate = this.config.OAUTH_JWKS_ALLOW_PRIVATE_TARGETS;
    const fetcher = guardedFetch(allowPrivate);
    const config = await client.discovery(
      new URL(connection.oidcIssuer!),
      connection.oidcClientId!,
      { redirect_uris: [this.redirectUri(connection)], id_token_signed_response_alg: undefined },
      this.clientAuthentication(connection),
      {
        [client.customFetch]: fetcher,
        execute: allowPrivate && connection.oidcIssuer!.startsWith('http:') ? [client.allowInsecureRequests] : [],
      },
    );
    config[client.customFetch] = fetcher;
    if (this.configurations.size > 1000) this.configurations.clear();
    this.configurations.set(connection.id, { config, until: Date.now() + DISCOVERY_TTL_MS, version });
    return config;
  }

  private clientAuthentication(connection: SsoConnection): client.ClientAuth {
    switch (connection.oidcTokenEndpointAuthMethod) {
      case 'private_key_jwt': {
        const jwk = JSON.parse(this.box.decrypt(connection.oidcPrivateKeyEncrypted!)) as { kid: string };
        const key = createPrivateKey({ key: jwk as never, format: 'jwk' });
        return client.PrivateKeyJwt({ key: key as unknown as CryptoKey, kid: jwk.kid });
      }
      case 'client_secret_post':
        return client.ClientSecretPost(this.box.decrypt(connection.oidcClientSecretEncrypted!));
      default:
        return client.ClientSecretBasic(this.box.decrypt(connection.oidcClientSecretEncrypted!));
    }
  }
}
