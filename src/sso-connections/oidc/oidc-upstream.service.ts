import { Inject, Injectable } from '@nestjs/common';
import { createPrivateKey, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { Clock } from '../../common/clock';
import { SecretBox } from '../../common/crypto/secret-box';
import { sha256Hex } from '../../common/crypto/tokens';
import type { RequestMeta } from '../../common/request-context';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import type { BrowserSession } from '../../hosted-login/browser-sessions.service';
import { forcesAuthentication } from '../../hosted-login/continuation-target';
import type { SsoConnection } from '../entities/sso-connection.entity';
import { connectionUrls } from '../sso-connection-views';
import { type OidcFlow, SsoConnectionsRepository } from '../sso-connections.repository';
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
  /** Each connection's relying party as the last sign-in built it (decision 0985), by connection id. */
  private readonly relyingParties = new Map<string, RelyingParty>();
  /** Each connection's provider JWKS as openid-client last fetched it, reused by the next sign-in. */
  private readonly jwksCaches = new Map<string, { cache: client.ExportedJWKSCache; version: string }>();

  constructor(
    private readonly connections: SsoConnectionsRepository,
    private readonly upstream: UpstreamSignInService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly box: SecretBox,
  ) {}

  /** Redirects the browser to the provider with a new flow bound to it (its flow cookie, kept if it has one). */
  async start(connection: SsoConnection, next: string, flowCookie: unknown, request: RequestMeta): Promise<OidcStart> {
    let config: client.Configuration;
    try {
      config = (await this.relyingParty(connection)).forStart;
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
      // A forced sign-in (the application's prompt=login or max_age) is forced at the upstream too (decision 0986).
      ...(forcesAuthentication(next) ? { prompt: 'login' } : {}),
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
    const now = this.clock.now();
    const browserHash = typeof flowCookie === 'string' ? sha256Hex(flowCookie) : '';
    const spent = await this.connections.spendFlow(sha256Hex(state), connection.id, browserHash, now);
    if ('refused' in spent) return refuse(whyNotSpent(spent.refused, connection, browserHash, now));
    const flow = spent.spent;
    let claims: client.IDToken;
    let config: client.Configuration | undefined;
    try {
      config = this.configuration(connection, await this.relyingParty(connection));
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: this.box.decrypt(flow.codeVerifierEncrypted),
        expectedState: state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims()!;
    } catch (err) {
      return refuse(refusalOf(err));
    } finally {
      if (config) this.keepJwks(connection, config);
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

  /**
   * What a connection's sign-ins share (decision 0985): the provider's discovery document, our
   * client authentication (the secret decrypted, the private key imported), the guarded fetch and
   * the Configuration the start builds its authorization URL with. Kept per connection version
   * (its updated_at, read with the connection on every request, so an edit on any instance is seen
   * at once) for the discovery document's 10 minutes.
   */
  private async relyingParty(connection: SsoConnection): Promise<RelyingParty> {
    const version = versionOf(connection);
    const kept = this.relyingParties.get(connection.id);
    if (kept && kept.version === version && kept.until > Date.now()) return kept;
    const allowPrivate = this.config.OAUTH_JWKS_ALLOW_PRIVATE_TARGETS;
    const insecure = allowPrivate && connection.oidcIssuer!.startsWith('http:');
    const fetcher = guardedFetch(allowPrivate);
    const discovered = await client.discovery(new URL(connection.oidcIssuer!), connection.oidcClientId!, undefined, undefined, {
      [client.customFetch]: fetcher,
      execute: insecure ? [client.allowInsecureRequests] : [],
    });
    const party: Omit<RelyingParty, 'forStart'> = {
      version,
      until: Date.now() + DISCOVERY_TTL_MS,
      metadata: discovered.serverMetadata(),
      auth: this.clientAuthentication(connection),
      fetcher,
      insecure,
    };
    const built = { ...party, forStart: this.newConfiguration(connection, party) };
    if (this.relyingParties.size > 1000) this.relyingParties.clear();
    this.relyingParties.set(connection.id, built);
    return built;
  }

  /**
   * The Configuration a callback redeems its code with: new per sign-in so that the JWKS cache it
   * starts from is ours to set (decision 0430). The ID token's signature is checked against the
   * provider's JWKS (openid-client's non-repudiation check), not only trusted for arriving over TLS.
   */
  private configuration(connection: SsoConnection, party: RelyingParty): client.Configuration {
    const config = this.newConfiguration(connection, party);
    const kept = this.jwksCaches.get(connection.id);
    if (kept && kept.version === versionOf(connection)) client.setJwksCache(config, refetchableOnUnknownKid(kept.cache));
    return config;
  }

  private newConfiguration(connection: SsoConnection, party: Omit<RelyingParty, 'forStart'>): client.Configuration {
    const config = new client.Configuration(
      party.metadata,
      connection.oidcClientId!,
      { redirect_uris: [this.redirectUri(connection)] },
      party.auth,
    );
    config[client.customFetch] = party.fetcher;
    if (party.insecure) client.allowInsecureRequests(config);
    client.enableNonRepudiationChecks(config);
    return config;
  }

  /** Keeps what openid-client fetched of the provider's JWKS for the connection's next sign-in. */
  private keepJwks(connection: SsoConnection, config: client.Configuration): void {
    const cache = client.getJwksCache(config);
    if (!cache) return;
    if (this.jwksCaches.size > 1000) this.jwksCaches.clear();
    this.jwksCaches.set(connection.id, { cache, version: versionOf(connection) });
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

/**
 * Why the callback's state spent no flow (the same checks, in the same order, as the statement
 * that spends it): unknown or another connection's, another browser's, already spent, expired; a
 * flow that passes them all was spent by a concurrent answer.
 */
function whyNotSpent(flow: OidcFlow | null, connection: SsoConnection, browserHash: string, now: Date): UpstreamRefusal {
  if (!flow || flow.connectionId !== connection.id) return new UpstreamRefusal('state_mismatch', 'unknown state');
  if (!browserHash || browserHash !== flow.browserHash) return new UpstreamRefusal('state_mismatch', 'state started in another browser');
  if (flow.usedAt) return new UpstreamRefusal('response_replayed', 'state already used');
  if (flow.expiresAt <= now) return new UpstreamRefusal('state_mismatch', 'sign-in expired');
  return new UpstreamRefusal('response_replayed', 'state already used');
}

/** A connection's relying party, shared by its sign-ins (see OidcUpstreamService.relyingParty). */
interface RelyingParty {
  version: string;
  until: number;
  metadata: client.ServerMetadata;
  auth: client.ClientAuth;
  fetcher: client.CustomFetch;
  insecure: boolean;
  /** Builds the start's authorization URL only (no JWKS, no token request). */
  forStart: client.Configuration;
}

function versionOf(connection: SsoConnection): string {
  return connection.updatedAt.toISOString();
}

/**
 * The kept JWKS, dated at least a minute back: openid-client then fetches the JWKS again when the
 * ID token names a key it does not hold (a rotation, OpenID Connect Core 10.1.1) instead of
 * refusing it until its own one-minute pause has passed. The ID token comes from the provider's
 * token endpoint, never from the browser, so nobody but the provider can cause that fetch.
 */
function refetchableOnUnknownKid(cache: client.ExportedJWKSCache): client.ExportedJWKSCache {
  const aMinuteAgo = Math.floor(Date.now() / 1000) - 60;
  return { jwks: cache.jwks, uat: Math.min(cache.uat, aMinuteAgo) };
}
