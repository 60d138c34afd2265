import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { DetectorSettings } from '../anomalies/detectors/detector.types';
import { GEOLOCATOR } from '../anomalies/geo/geo.provider';
import type { Geolocator } from '../anomalies/geo/geolocator';
import { Clock } from '../common/clock';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { DomainError } from '../common/errors';
import type { RequestMeta } from '../common/request-context';
import { reduceUserAgent } from '../common/user-agent';
import { UnitOfWork } from '../database/unit-of-work';
import { MailService } from '../mail/mail.service';
import { SessionsService } from '../sessions/sessions.service';
import { describeDevice } from '../anomalies/ua-family';
import { EndUserRecord, EndUsersRepository } from '../end-user-directory/end-users.repository';
import { MfaChallengesService, MfaRequired, methodsOf } from './mfa-challenges.service';
import { MfaRepository } from './mfa.repository';
import { decide, geoBaselineExists, hasGeoPolicy, PlaceFacts, RiskDecision } from './sign-in-policy';
import { SignInPolicyRepository } from './sign-in-policy.repository';
import { policyEvaluationSeconds } from './sign-in-policy.metrics';
import { END_USER_ERRORS } from '../end-user-directory/end-users.errors';
import { byEndUser } from '../events/domain-events';

/**
 * What a sign-in owes once the password is right (API and hosted login alike): nothing (open the
 * session), a second factor (the account has one), a step-up (the workspace's policy challenges
 * this device), or nothing at all (the policy blocks it: 403 sign_in_blocked, the user's sessions
 * ended and the user mailed).
 * The factors and the policy are read in parallel: two indexed round trips, one of them a
 * primary-key miss while the workspace has no policy.
 */
@Injectable()
export class SignInGate {
  private readonly logger = new Logger('SignInGate');
  private readonly detectorSettings: DetectorSettings;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly factors: MfaRepository,
    private readonly policies: SignInPolicyRepository,
    private readonly challenges: MfaChallengesService,
    private readonly users: EndUsersRepository,
    private readonly mail: MailService,
    private readonly sessions: SessionsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() @Inject(GEOLOCATOR) private readonly geolocator: Geolocator | null = null,
  ) {
    this.detectorSettings = {
      geoEnabled: true,
      impossibleTravelKmh: config.ANOMALY_IMPOSSIBLE_TRAVEL_KMH,
      impossibleTravelMinKm: config.ANOMALY_IMPOSSIBLE_TRAVEL_MIN_KM,
    };
  }

  async afterPassword(user: EndUserRecord, kind: 'api' | 'browser', request: RequestMeta): Promise<MfaRequired | null> {
    const [factors, risk] = await Promise.all([this.factors.factors(user.workspaceId, user.id), this.evaluate(user, request)]);
    const methods = methodsOf(factors);
    if (risk.action === 'block') {
      await this.block(user, risk, request);
      throw new DomainError(END_USER_ERRORS.sign_in_blocked, 'This sign-in was blocked by the security policy of the application');
    }
    if (risk.action === 'challenge') return this.challenges.stepUp(user, kind, methods, risk.kinds, request);
    return methods.length ? this.challenges.open(user, kind, methods) : null;
  }

  /**
   * A passwordless passkey sign-in (decision 0323): the passkey with user verification is already
   * two factors, so a `challenge` policy is met by it (and named on the session); `block` still refuses.
   */
  async afterPasskey(user: EndUserRecord, request: RequestMeta): Promise<{ action: 'challenge'; kinds: string[] } | undefined> {
    const risk = await this.evaluate(user, request);
    if (risk.action === 'block') {
      await this.block(user, risk, request);
      throw new DomainError(END_USER_ERRORS.sign_in_blocked, 'This sign-in was blocked by the security policy of the application');
    }
    return risk.action === 'challenge' ? { action: 'challenge', kinds: risk.kinds } : undefined;
  }

  /**
   * The policy's decision for this sign-in; `allow` when the workspace has no policy. The address is
   * located (the geolocation cache first) only when a geo kind has a policy and the user has a
   * geolocated history it could differ from (decision 0326).
   */
  async evaluate(user: EndUserRecord, request: RequestMeta): Promise<RiskDecision> {
    const started = process.hrtime.bigint();
    const families = reduceUserAgent(request.userAgent ? request.userAgent.slice(0, 1000) : null);
    const now = this.clock.now();
    const found = await this.policies.evaluate(
      user.workspaceId,
      user.id,
      { browserFamily: families.browserFamily, osFamily: families.osFamily, ip: request.ip || null },
      now,
    );
    let decision: RiskDecision = { action: 'allow', kinds: [] };
    if (found) {
      const locate = this.geolocator && found.facts.anySession && hasGeoPolicy(found.policy) && geoBaselineExists(found.history);
      const current = locate ? await this.place(request.ip) : null;
      decision = decide(found.policy, found.facts, { ...found.history, current }, now, this.detectorSettings);
    }
    policyEvaluationSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    return decision;
  }

  /** Where the address is, or null (unknown, private, or the lookup failed: geo kinds then cannot fire). */
  private async place(ip: string | undefined): Promise<PlaceFacts | null> {
    const { info } = await this.geolocator!.locate(ip || null);
    return info ? { country: info.country, city: info.city, latitude: info.latitude, longitude: info.longitude } : null;
  }

  /**
   * A block (decision 0953): the right password from where the policy does not allow it means the
   * password is no longer the person's alone, so every session of theirs ends with it (tokens denied),
   * the person is mailed, and sign_in_blocked is audited, all in one unit of work. The audited block
   * is a CAEP session-revoked for the Shared Signals receivers. A failure here never unblocks.
   */
  private async block(user: EndUserRecord, risk: RiskDecision, request: RequestMeta): Promise<void> {
    const families = reduceUserAgent(request.userAgent ? request.userAgent.slice(0, 1000) : null);
    try {
      const denied = await this.uow.run(async (tx, events) => {
        const ended = await this.sessions.endAllOfUser(tx, user.workspaceId, user.id, 'sign_in_blocked');
        await this.mail.enqueue(tx, {
          workspaceId: user.workspaceId,
          template: 'sign_in_blocked',
          to: user.email,
          values: {
            first_name: user.firstName || 'there',
            last_name: user.lastName,
            email: user.email,
            device: describeDevice(families),
            ip_address: request.ip || 'unknown',
            oauth_client: { name: await this.users.clientName(tx, user.workspaceId, user.oauthClientId) },
          },
        });
        events.emit('sign_in_blocked', {
          ...byEndUser(user, request),
          metadata: {
            kinds: risk.kinds,
            policy: 'block',
            sessions_ended: ended.sessionsEnded,
            browser_family: families.browserFamily,
            os_family: families.osFamily,
          },
        });
        return ended.denied;
      });
      await this.sessions.mirrorDenied(denied);
    } catch (err) {
      this.logger.error(`sign_in_blocked for user ${user.id} not recorded: ${(err as Error).message}`);
    }
  }
}
