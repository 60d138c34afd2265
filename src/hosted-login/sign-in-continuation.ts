import { Inject, Injectable } from '@nestjs/common';
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { Clock } from '../common/clock';
import { safeEqual } from '../common/crypto/tokens';
import { APP_CONFIG, type AppConfig } from '../config/config';

/** Cookie that carries a password-checked sign-in across "verify your email first" (decision 0050). */
export const CONTINUATION_COOKIE = 'esid_cont';
/** As long as a person plausibly takes to fetch the code from their mailbox. */
export const CONTINUATION_TTL_MS = 15 * 60 * 1000;

/** Who passed the password check, and in which workspace. */
export interface ContinuationClaim {
  userId: string;
  workspaceId: string;
}

interface Payload {
  u: string;
  w: string;
  /** Expiry, epoch milliseconds. */
  e: number;
  /** Hash of the browser's login-CSRF cookie: the continuation only works beside it. */
  b: string;
  n: string;
}

/**
 * A sign-in interrupted by "verify your email first" continues once the code is accepted, without
 * the password again. The continuation is a value MACed under a key derived from AUTH_JWT_SECRET,
 * in an HttpOnly SameSite=Strict cookie scoped to the hosted login path: it names the account whose
 * password was just checked, expires after 15 minutes, and is bound to the browser's login-CSRF
 * cookie. It is honoured only by the request that accepts that account's verification code, which
 * succeeds once, so it is single-use by construction (and the response clears it).
 */
@Injectable()
export class SignInContinuations {
  private readonly key: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', config.AUTH_JWT_SECRET ?? '', 'identity-service', 'hosted-login-continuation', 32));
  }

  issue(claim: ContinuationClaim, browserBinding: string): string {
    const payload: Payload = {
      u: claim.userId,
      w: claim.workspaceId,
      e: this.clock.now().getTime() + CONTINUATION_TTL_MS,
      b: bindingHash(browserBinding),
      n: randomBytes(12).toString('base64url'),
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The claim when the value is ours, unexpired and bound to this browser; otherwise null. */
  read(value: unknown, browserBinding: unknown): ContinuationClaim | null {
    if (typeof value !== 'string' || value.length > 1024 || typeof browserBinding !== 'string') return null;
    const [body, mac, extra] = value.split('.');
    if (!body || !mac || extra !== undefined || !safeEqual(this.mac(body), mac)) return null;
    let payload: Partial<Payload>;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Payload>;
    } catch {
      return null;
    }
    if (typeof payload.u !== 'string' || typeof payload.w !== 'string' || typeof payload.e !== 'number') return null;
    if (payload.e <= this.clock.now().getTime()) return null;
    if (typeof payload.b !== 'string' || !safeEqual(payload.b, bindingHash(browserBinding))) return null;
    return { userId: payload.u, workspaceId: payload.w };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

function bindingHash(binding: string): string {
  return createHash('sha256').update(binding).digest('base64url');
}
