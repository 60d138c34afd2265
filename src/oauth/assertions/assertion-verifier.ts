import { Injectable, Logger } from '@nestjs/common';
import { errors, jwtVerify, type JWTPayload } from 'jose';
import { isStorableText } from '../../common/body-guard';
import { Clock } from '../../common/clock';
import type { KeySource } from '../clients/registered-client';
import { AssertionJtisRepository } from './assertion-jtis.repository';
import { KeySets } from './key-sets';

/** Asymmetric algorithms only: a client assertion signed with a shared secret (HS*) or `none` is refused. */
export const ASSERTION_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const CLOCK_TOLERANCE_SECONDS = 30;
const MAX_ASSERTION_CHARS = 16 * 1024;
const PURGE_EVERY_MS = 60_000;

export interface AssertionExpectations {
  issuer: string;
  subject: string;
  /** Accepted `aud` values (any one of them). */
  audiences: string[];
  keys: KeySource;
  /** `exp` may lie at most this far ahead (RFC 7523 §2.2 as decision 0903 profiles it: 300 s); null for no bound. */
  maxSecondsAhead: number | null;
  /** Refuse an assertion without `jti` (client assertions); a present `jti` is always checked for replay. */
  requireJti: boolean;
}

/** Why an assertion was refused, for the error_description (never the assertion itself). */
export class AssertionRefused extends Error {}

/**
 * Verifies a JWT used as a client assertion (RFC 7523 §2.2) or as an authorization grant
 * (§2.1): signature against the given keys, `iss`, `sub`, `aud`, `exp` (required, bounded),
 * `nbf`/`iat` when present, and `jti` never seen before for that issuer (§3 item 7).
 */
@Injectable()
export class AssertionVerifier {
  private readonly logger = new Logger('AssertionVerifier');
  private lastPurge = 0;

  constructor(
    private readonly keySets: KeySets,
    private readonly jtis: AssertionJtisRepository,
    private readonly clock: Clock,
  ) {}

  async verify(assertion: string, expect: AssertionExpectations): Promise<JWTPayload> {
    if (assertion.length > MAX_ASSERTION_CHARS) throw new AssertionRefused('assertion too large');
    const now = this.clock.now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(assertion, this.keySets.resolver(expect.keys), {
        algorithms: ASSERTION_ALGORITHMS,
        issuer: expect.issuer,
        subject: expect.subject,
        audience: expect.audiences,
        currentDate: now,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      throw new AssertionRefused(describe(err));
    }
    const nowSeconds = Math.floor(now.getTime() / 1000);
    if (expect.maxSecondsAhead !== null && payload.exp! > nowSeconds + expect.maxSecondsAhead + CLOCK_TOLERANCE_SECONDS) {
      throw new AssertionRefused(`assertion exp is more than ${expect.maxSecondsAhead} s ahead`);
    }
    if (payload.jti === undefined && expect.requireJti) throw new AssertionRefused('assertion has no jti');
    if (payload.jti !== undefined) {
      if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > 256 || !isStorableText(payload.jti)) {
        throw new AssertionRefused('assertion jti is not a string of 1 to 256 storable characters');
      }
      const first = await this.jtis.claim(expect.issuer, payload.jti, new Date((payload.exp! + CLOCK_TOLERANCE_SECONDS) * 1000));
      if (!first) throw new AssertionRefused('assertion jti was already used');
    }
    this.purgeNowAndThen(now);
    return payload;
  }

  private purgeNowAndThen(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    this.jtis.purgeExpired(now).catch((err: Error) => this.logger.warn(`purging used assertion ids failed: ${err.message}`));
  }
}

function describe(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'assertion has expired';
  if (err instanceof errors.JWTClaimValidationFailed) return `assertion claim ${err.claim} is not acceptable`;
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'assertion signature does not verify';
  if (err instanceof errors.JWKSNoMatchingKey) return 'no registered key matches the assertion';
  if (err instanceof errors.JOSEAlgNotAllowed) return 'assertion algorithm is not allowed';
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) return 'the key set could not be fetched';
  if (err instanceof errors.JOSEError) return 'assertion is not a valid JWT';
  if (err instanceof TypeError) return 'assertion is not a valid JWT';
  return `the key set could not be fetched (${(err as Error)?.message ?? 'error'})`;
}
