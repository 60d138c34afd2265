import { Inject, Injectable } from '@nestjs/common';
import { RequestMeta } from '../../common/request-context';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { IdpRuntime } from '../idp/idp-runtime';
import { assertedClass, RequestedAuthnContext, TWO_FACTOR_AMR } from '../protocol/authn-context';
import { actorOf, BrowserUser, BrowserUsers } from './browser-user';
import {
  catalogued,
  isRefusal,
  SsoFlow,
  SsoOutcome,
  SsoPageRefusal,
  SsoPostOutcome,
  SsoRefusal,
  SsoRefused,
  TicketEffect,
} from './sso-outcome';
import { SsoRefusals } from './sso-refusals.service';
import { SsoRequestChecks } from './sso-request-checks.service';
import { SsoRequestsRepository } from './sso-requests.repository';
import { IdClaim, SsoResponses } from './sso-responses.service';

export const FINISH_PATH = '/saml/sso/finish/';

/** What the controller read from an SSO request: its parameters and the hosted-login cookie's token. */
export interface SsoStart {
  /** The SAMLRequest parameter (HTTP-Redirect encoding), as received. */
  samlRequest: unknown;
  /** The RelayState parameter, as received (a repeated parameter arrives as an array and is refused). */
  relayState: unknown;
  sessionToken: string | undefined;
}

/**
 * SP-initiated SSO (spec B), the order of things: the request's checks (SsoRequestChecks), a trip
 * to the hosted login while the request is parked, then a signed Response (SsoResponses): an
 * assertion, or a status (NoPassive, NoAuthnContext, UnknownPrincipal, InvalidNameIDPolicy) when the
 * request's constraints cannot be met. Every refusal is recorded (SsoRefusals: saml_sso_failure in
 * the SP's workspace once the SP is known, counted and logged before that, decision 0206); every
 * assertion is saml_sso_success. Answers an SsoOutcome, which the controller renders.
 */
@Injectable()
export class SamlSsoService {
  constructor(
    private readonly idp: IdpRuntime,
    private readonly checks: SsoRequestChecks,
    private readonly responses: SsoResponses,
    private readonly refusals: SsoRefusals,
    private readonly requests: SsoRequestsRepository,
    private readonly users: BrowserUsers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async start(input: SsoStart, meta: RequestMeta): Promise<SsoOutcome> {
    const checked = await this.checkArrival(input, meta);
    if ('kind' in checked) return checked;
    const { flow, user, met } = checked;
    const { sp, request } = flow;
    // Signed in with a session that meets the request: answered at once, its ID claimed with the audit row (decision 0988).
    if (user && met) return this.issue(flow, user, 'clear', met, 'now');
    let stepUp = false;
    if (user && !request.forceAuthn) {
      // Signed in, and the session does not meet the request: step up when a second factor could meet it, else NoAuthnContext.
      if (!(await this.stepUpCouldMeet(user, request.requestedAuthnContext))) {
        return this.refuse(this.checks.noAuthnContext(flow, user), flow, 'keep');
      }
      stepUp = true;
    }
    if (request.isPassive) return this.refuse(this.checks.noPassive(stepUp ? user : null), flow, 'keep');
    const ticket = await this.requests.stash(sp, request, flow.relayState, meta.ip, this.config.SAML_PENDING_PER_CLIENT);
    return { kind: 'login', ticket, signOut: request.forceAuthn && user !== null, location: this.loginLocation(flow, stepUp) };
  }

  /**
   * Every check an arriving request passes before anyone is asked to sign in, in order; the first
   * refusal is the outcome. Passed, the request, the browser's user in the SP's workspace (or null),
   * and the authentication class the user's session asserts for the request when it meets it and
   * ForceAuthn does not ask for a new sign-in (null otherwise). The request's ID is claimed here
   * (decision 0208) unless the user is answered at once (`met`): then with the assertion's audit row,
   * and before any refusal (decision 0988), so a replay is refused as one either way.
   */
  private async checkArrival(
    input: SsoStart,
    meta: RequestMeta,
  ): Promise<{ flow: SsoFlow; user: BrowserUser | null; met: string | null } | SsoOutcome> {
    const settings = this.idp.settings();
    const request = this.checks.read(input.samlRequest);
    if (isRefusal(request)) return this.refusePage(request, meta, 'keep');
    // The session brings the user's profile; the SP comes from the cache of registrations (decision 1025).
    const session = await this.users.session(input.sessionToken);
    const sp = await this.checks.registeredSp(request);
    if (isRefusal(sp)) return this.refusePage(sp, meta, 'keep');
    const relayState = this.checks.relayState(sp, request, input.relayState);
    if (isRefusal(relayState)) return this.refusePage(relayState, meta, 'keep');
    const flow: SsoFlow = { settings, sp, request, relayState, meta };
    const user = this.users.asMember(session, sp.workspaceId);
    const met = user && !request.forceAuthn ? assertedClass(user.amr, request.requestedAuthnContext) : null;
    const refused = this.checks.constraints(flow) ?? (met ? null : await this.checks.claimId(flow));
    if (refused) return this.refuse(refused, flow, 'keep');
    // A NameIDPolicy the registration cannot meet is answered at once: signing in would not change it.
    const rule = this.checks.nameIdRule(flow);
    if (isRefusal(rule)) return this.refuseUnlessReplayed(rule, flow, 'keep', met ? 'now' : 'claimed');
    // So is a RequestedAuthnContext that neither a password nor a second factor can meet.
    const impossible = this.checks.authnContextPossible(flow);
    if (impossible) return this.refuseUnlessReplayed(impossible, flow, 'keep', met ? 'now' : 'claimed');
    return { flow, user, met };
  }

  /**
   * HTTP-POST binding (saml-bindings §3.5): the form's SAMLRequest is checked here exactly as the
   * GET checks its parameter (a refusal is counted and logged the same way), then the browser is
   * sent on to the Redirect-binding GET, which does the rest: a top-level GET carries the
   * SameSite=Lax session cookie that a cross-site POST does not.
   */
  async startPost(input: Omit<SsoStart, 'sessionToken'>, meta: RequestMeta): Promise<SsoPostOutcome> {
    this.idp.settings();
    const encoded = this.checks.readPosted(input.samlRequest);
    if (isRefusal(encoded)) return this.refusePage(encoded, meta, 'keep');
    const params = new URLSearchParams({ SAMLRequest: encoded });
    // Passed on as sent, repeats included, so the GET refuses (and audits) what it would refuse by GET.
    for (const value of [input.relayState].flat()) if (typeof value === 'string' && value !== '') params.append('RelayState', value);
    return { kind: 'resend', location: `/saml/sso/?${params.toString()}` };
  }

  /** Resumes a parked request after the hosted login page signed the user in. */
  async finish(ticket: string | undefined, sessionToken: string | undefined, meta: RequestMeta): Promise<SsoOutcome> {
    const settings = this.idp.settings();
    const pending = ticket ? await this.requests.find(ticket) : null;
    if (!pending) {
      return expired('This sign-in request has expired or was already used. Go back to the application and start again.');
    }
    const session = await this.users.session(sessionToken);
    const sp = await this.checks.parkedSp(pending);
    if (isRefusal(sp)) return this.refusePage(sp, meta, 'keep');
    const flow: SsoFlow = { settings, sp, request: pending.request, relayState: pending.relayState, meta };

    const user = this.users.asMember(session, sp.workspaceId);
    if (!user || !this.checks.satisfiesForceAuthn(user, pending)) {
      // Not signed in, signed in to another workspace, or (ForceAuthn) with a password typed before the request.
      return { kind: 'login', ticket: 'keep', signOut: user !== null, location: this.loginLocation(flow) };
    }
    const met = assertedClass(user.amr, pending.request.requestedAuthnContext);
    if (!met && (await this.stepUpCouldMeet(user, pending.request.requestedAuthnContext))) {
      // Password only, and the request wants a second factor the user has: step up, keep the ticket.
      return { kind: 'login', ticket: 'keep', signOut: false, location: this.loginLocation(flow, true) };
    }
    // Single use: two tabs finishing the same ticket get one assertion between them.
    if (!(await this.requests.consume(pending.id))) {
      return expired('This sign-in request was already used. Go back to the application and start again.');
    }
    if (!met) return this.refuse(this.checks.noAuthnContext(flow, user), flow, 'clear');
    return this.issue(flow, user, 'clear', met);
  }

  /**
   * The assertion for the signed-in user, once the NameID rule and the user pass the checks. With `claim` 'now' the
   * request's ID is not claimed yet: it is claimed before a refusal (a replay is refused as one) and with the
   * assertion's audit row.
   */
  private async issue(
    flow: SsoFlow,
    user: BrowserUser,
    ticket: TicketEffect,
    authnClass: string,
    claim: IdClaim = 'claimed',
  ): Promise<SsoOutcome> {
    // The registration may have changed while the request was parked so that it no longer meets the policy.
    const rule = this.checks.nameIdRule(flow, actorOf(user));
    if (isRefusal(rule)) return this.refuseUnlessReplayed(rule, flow, ticket, claim);
    const refused = this.checks.assertable(flow, user, rule);
    if (refused) return this.refuseUnlessReplayed(refused, flow, ticket, claim);
    const post = await this.responses.assertion(flow, user, rule, authnClass, claim);
    // A Response that cannot be built leaves the ticket cookie as it is.
    if (isRefusal(post)) return this.refuse(post, flow, 'keep');
    return { kind: 'assertion', post, ticket };
  }

  /** refuse(), once a request whose ID is still to be claimed (`claim` 'now') has claimed it: a replay is refused as one. */
  private async refuseUnlessReplayed(refusal: SsoRefusal, flow: SsoFlow, ticket: TicketEffect, claim: IdClaim): Promise<SsoOutcome> {
    const replayed = claim === 'now' ? await this.checks.claimId(flow) : null;
    return replayed ? this.refuse(replayed, flow, 'keep') : this.refuse(refusal, flow, ticket);
  }

  /** Records the refusal (when it is one to record), then answers it: an error page, or a status Response to the ACS. */
  private async refuse(refusal: SsoRefusal, flow: SsoFlow, ticket: TicketEffect): Promise<SsoOutcome> {
    if (refusal.answer === 'page') return this.refusePage(refusal, flow.meta, ticket);
    if (refusal.failure) await this.refusals.record(refusal.failure, flow.meta);
    return { kind: 'status', post: this.responses.status(flow, refusal), ticket };
  }

  /** Records the refusal (when it is one to record) and answers it with an error page. */
  private async refusePage(refusal: SsoPageRefusal, meta: RequestMeta, ticket: TicketEffect): Promise<SsoRefused> {
    if (refusal.failure) await this.refusals.record(refusal.failure, meta);
    const { status, code, title, message } = refusal;
    return { kind: 'refused', status, code, title, message, ticket };
  }

  /**
   * Whether sending the user to the step-up page could end in a session that meets the request: the session
   * has not used a second factor yet (the step-up page asks only for one it lacks, so a session that already
   * has one would come straight back: the loop of decision 0215), the user has a factor, and a second factor
   * can meet what is requested. Otherwise the answer is NoAuthnContext.
   */
  private async stepUpCouldMeet(user: BrowserUser, requested: RequestedAuthnContext | undefined): Promise<boolean> {
    if (user.amr.includes('mfa')) return false;
    if (assertedClass(TWO_FACTOR_AMR, requested) === null) return false;
    return this.users.hasSecondFactor(user);
  }

  private loginLocation(flow: SsoFlow, stepUp = false): string {
    return this.users.loginLocation(flow.settings.loginUrl, flow.sp.workspaceId, FINISH_PATH, stepUp);
  }
}

/** The parked request is gone (expired, or finished by another tab): nothing to record, the ticket cookie goes. */
function expired(message: string): SsoOutcome {
  return { kind: 'refused', ...catalogued('saml_request_expired'), title: 'Sign-in request expired', message, ticket: 'clear' };
}
