import { Inject, Injectable } from '@nestjs/common';
import { createLocalJWKSet, createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { fetchOutboundBuffered } from '../../common/guarded-fetch';
import { unsafeTargetReason } from '../../common/safe-http';
import type { KeySource } from '../clients/registered-client';

const MAX_JWKS_BYTES = 64 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_REMOTE_SETS = 1_000;

/**
 * Turns a client's (or trusted issuer's) KeySource into what jose verifies with. Remote sets are
 * fetched through jose's cache (refetched on an unknown kid, with a cooldown) behind an SSRF
 * guard: https only, never a private or loopback address unless OAUTH_JWKS_ALLOW_PRIVATE_TARGETS,
 * no redirects, 64 KiB at most, 5 s timeout (decision 0903).
 */
@Injectable()
export class KeySets {
  private readonly remote = new Map<string, JWTVerifyGetKey>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  resolver(source: KeySource): JWTVerifyGetKey {
    if ('keys' in source) return createLocalJWKSet({ keys: source.keys });
    let set = this.remote.get(source.uri);
    if (!set) {
      if (this.remote.size >= MAX_REMOTE_SETS) this.remote.clear();
      set = createRemoteJWKSet(new URL(source.uri), {
        timeoutDuration: FETCH_TIMEOUT_MS,
        cooldownDuration: 30_000,
        cacheMaxAge: 10 * 60_000,
        [customFetch]: (url: string, options: RequestInit) => this.guardedFetch(url, options),
      });
      this.remote.set(source.uri, set);
    }
    return set;
  }

  /** Why a JWKS URL cannot be used, or null (checked when it is registered, and again at each fetch). */
  unsafeReason(uri: string): Promise<string | null> {
    return unsafeTargetReason(uri, this.config.OAUTH_JWKS_ALLOW_PRIVATE_TARGETS);
  }

  private guardedFetch(url: string, options: RequestInit): Promise<Response> {
    return fetchOutboundBuffered(
      url,
      options,
      { allowPrivate: this.config.OAUTH_JWKS_ALLOW_PRIVATE_TARGETS, maxBytes: MAX_JWKS_BYTES },
      { refused: (reason) => new Error(`JWKS URL refused: ${reason}`), tooLarge: () => new Error('JWKS response too large') },
    );
  }
}
