import { Inject, Injectable } from '@nestjs/common';
import { createLocalJWKSet, createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { APP_CONFIG, AppConfig } from '../../config/config';
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

  private async guardedFetch(url: string, options: RequestInit): Promise<Response> {
    const reason = await this.unsafeReason(url);
    if (reason) throw new Error(`JWKS URL refused: ${reason}`);
    const res = await fetch(url, { ...options, redirect: 'error' });
    const body = await readLimited(res);
    return new Response(body, { status: res.status, headers: res.headers });
  }
}

async function readLimited(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_JWKS_BYTES) {
      await reader.cancel();
      throw new Error('JWKS response too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
