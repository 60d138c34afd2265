import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../../common/errors';
import type { RequestMeta } from '../../common/request-context';
import { reduceUserAgent } from '../../common/user-agent';
import { UnitOfWork } from '../../database/unit-of-work';
import { MailService } from '../../mail/mail.service';
import { describeDevice } from '../../anomalies/ua-family';
import { EndUserRecord, EndUsersRepository } from '../end-users.repository';
import { MfaChallengesService, MfaRequired, methodsOf } from './mfa-challenges.service';
import { MfaRepository } from './mfa.repository';
import { decide, RiskDecision } from './sign-in-policy';
import { SignInPolicyRepository } from './sign-in-policy.repository';
import { policyEvaluationSeconds } from './sign-in-policy.metrics';

/**
 * What a sign-in owes once the password is right (API and hosted login alike): nothing (open the
 * session), a second factor (the account has one), a step-up (the workspace's policy challenges
 * this device), or nothing at all (the policy blocks it: 403 sign_in_blocked, the user mailed).
 * The factors and the policy are read in parallel: two indexed round trips, one of them a
 * primary-key miss while the workspace has no policy.
 */
@Injectable()
export class SignInGate {
  private readonly logger = new Logger('SignInGate');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly factors: MfaRepository,
    private readonly policies: SignInPolicyRepository,
    private readonly challenges: MfaChallengesService,
    private readonly users: EndUsersRepository,
    private readonly mail: MailService,
  ) {}

  async afterPassword(user: EndUserRecord, kind: 'api' | 'browser', request: RequestMeta): Promise<MfaRequired | null> {
    const [factors, risk] = await Promise.all([this.factors.factors(user.workspaceId, user.id), this.evaluate(user, request)]);
    const methods = methodsOf(factors);
    if (risk.action === 'block') {
      await this.block(user, risk, request);
      throw new DomainError('sign_in_blocked', 'This sign-in was blocked by the security policy of the application', { status: 403 });
    }
    if (risk.action === 'challenge') return this.challenges.stepUp(user, kind, methods, risk.kinds, request);
    return methods.length ? this.challenges.open(user, kind, methods) : null;
  }

  /** The policy's decision for this sign-in's device; `allow` when the workspace has no policy. */
  async evaluate(user: EndUserRecord, request: RequestMeta): Promise<RiskDecision> {
    const started = process.hrtime.bigint();
    const families = reduceUserAgent(request.userAgent ? request.userAgent.slice(0, 1000) : null);
    const found = await this.policies.evaluate(user.workspaceId, user.id, {
      browserFamily: families.browserFamily,
      osFamily: families.osFamily,
      ip: request.ip || null,
    });
    policyEvaluationSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    return found ? decide(found.policy, found.facts) : { action: 'allow', kinds: [] };
  }

  /** sign_in_blocked, and the mail telling the user, in one unit of work (a failure to queue never unblocks). */
  private async block(user: EndUserRecord, risk: RiskDecision, request: RequestMeta): Promise<void> {
    const families = reduceUserAgent(request.userAgent ? request.userAgent.slice(0, 1000) : null);
    try {
      await this.uow.run(async (tx, events) => {
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
          workspaceId: user.workspaceId,
          actor: { type: 'end_user', id: user.id, email: user.email },
          target: { type: 'EndUser', id: user.id },
          oauthClientId: user.oauthClientId,
          request,
          metadata: { kinds: risk.kinds, policy: 'block', browser_family: families.browserFamily, os_family: families.osFamily },
        });
      });
      this.mail.kick();
    } catch (err) {
      this.logger.error(`sign_in_blocked for user ${user.id} not recorded: ${(err as Error).message}`);
    }
  }
}
