import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors';
import { RequestMeta } from '../../common/request-context';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { DomainEventBus } from '../../events/domain-event-bus';
import { IdpRuntime } from '../idp/idp-runtime';
import { IdpSettings } from '../idp/idp-settings';
import { AuthnRequestInfo, postToRedirectEncoding, readRedirectAuthnRequest } from '../protocol/authn-request.parser';
import { assertedClass, TWO_FACTOR_AMR } from '../protocol/authn-context';
import { buildLoginResponse, buildStatusResponse } from '../protocol/login-response.builder';
import { NameIdRule, nameIdValue, ruleForPolicy, subjectMatches } from '../protocol/name-id';
import { pairwiseId } from '../protocol/pairwise';
import { renderAutoPostPage, RenderedPage } from '../protocol/post-form.page';
import { replayWindowEnd, requestFreshness } from '../protocol/request-freshness';
import { SamlError } from '../protocol/saml.errors';
import { samlRefusal } from '../saml.errors';
import { BINDING, NAME_ID_FORMAT, STATUS } from '../protocol/saml-urns';
import { AssertableUser, mapAttributes, UserFieldPath } from '../protocol/user-claims';
import { SamlServiceProvider } from '../sps/entities/saml-service-provider.entity';
import { capText, cappedMetadata } from './audit-text';
import { BrowserUser, BrowserUsers } from './browser-user';
import { unattributedFailures } from './sso.metrics';
import { PendingRequest, SsoRequestsRepository } from './sso-requests.repository';
import { SeenRequestsRepository } from './seen-requests.repository';

export const FINISH_PATH = '/saml/sso/finish/';
const MAX_RELAY_STATE = 2048;

/** What the controller sends back: the POST page, a trip to the login page, or an explanatory page. */
export type SsoOutcome =
  | { kind: 'post'; page: RenderedPage; ticket: 'clear' | 'keep' }
  /** signOut: ForceAuthn; the browser session is dropped so the login page asks for the password. */
  | { kind: 'login'; location: string; ticket: string | 'keep'; signOut: boolean }
  | { kind: 'page'; status: number; title: string; message: string; ticket: 'clear' | 'keep' };

/** What the controller read from an SSO request: its parameters and the hosted-login cookie's token. */
export interface SsoStart {
  /** The SAMLRequest parameter (HTTP-Redirect encoding), as received. */
  samlRequest: unknown;
  /** The RelayState parameter, as received (a repeated parameter arrives as an array and is refused). */
  relayState: unknown;
  sessionToken: string | undefined;
}

interface Flow {
  settings: IdpSettings;
  sp: SamlServiceProvider;
  request: AuthnRequestInfo;
  relayState: string | null;
  meta: RequestMeta;
}

/**
 * SP-initiated SSO (spec B): checks the AuthnRequest against the registration,
 * parks it while the browser signs in, and answers with a signed Response: an
 * assertion, or a status (NoPassive, NoAuthnContext, UnknownPrincipal) when the
 * request's constraints cannot be met. A refusal once the SP is known is audited as
 * saml_sso_failure in its workspace (before that: counted and logged, decision 0206);
 * every assertion as saml_sso_success.
 */
@Injectable()
export class SamlSsoService {
  private readonly logger = new Logger('SamlSso');

  constructor(
    private readonly idp: IdpRuntime,
    private readonly requests: SsoRequestsRepository,
    private readonly users: BrowserUsers,
    private readonly bus: DomainEventBus,
    private readonly seen: SeenRequestsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async start(input: SsoStart, meta: RequestMeta): Promise<SsoOutcome> {
    const settings = this.idp.settings();
    const request = await this.refuseOnError(null, meta, () => readRedirectAuthnRequest(input.samlRequest));
    // The session first, so the SP and the user's profile come back in one query.
    const session = await this.users.session(input.sessionToken);
    const found = await this.requests.findSpByEntityId(request.issuer, session?.userId ?? null);
    if (!found) {
      throw await this.refuse(null, meta, 'unknown_sp', `No service provider is registered with the entity id ${request.issuer}`, 400, {
        issuer: request.issuer,
      });
    }
    const { sp, profile } = found;
    const flow: Flow = { settings, sp, request, relayState: null, meta };
    flow.relayState = await this.relayState(flow, input.relayState);
    await this.checkRequest(flow);
    await this.claimRequestId(flow);
    // A NameIDPolicy the registration cannot meet is answered at once: signing in would not change it.
    if (!ruleForPolicy(registeredRule(sp), request.nameIdPolicy)) return this.invalidNameIdPolicy(flow, 'keep');

    // A request that neither a password nor a second factor can meet is answered at once.
    const requested = request.requestedAuthnContext;
    if (!assertedClass(['pwd'], requested) && !assertedClass(TWO_FACTOR_AMR, requested)) return this.noAuthnContext(flow);

    const user = this.users.asMember(session, sp.workspaceId, profile);
    let stepUp = false;
    if (user && !request.forceAuthn) {
      const met = assertedClass(user.amr, requested);
      if (met) return this.issue(flow, user, 'clear', met);
      // Signed in with the password alone and a second factor asked: step up, or NoAuthnContext without a factor.
      if (!(await this.users.hasSecondFactor(user))) return this.noAuthnContext(flow);
      stepUp = true;
    }
    if (request.isPassive) return this.noPassive(flow);
    const ticket = await this.requests.stash(sp, request, flow.relayState, meta.ip, this.config.SAML_PENDING_PER_CLIENT);
    return {
      kind: 'login',
      ticket,
      signOut: request.forceAuthn && user !== null,
      location: this.users.loginLocation(settings.loginUrl, sp.workspaceId, FINISH_PATH, stepUp),
    };
  }

  /**
   * HTTP-POST binding (saml-bindings §3.5): the form's SAMLRequest is checked here exactly as the
   * GET checks its parameter (a refusal is counted, logged and, once the SP is known, audited the
   * same way), then the browser is sent on to the Redirect-binding GET, which does the rest: a
   * top-level GET carries the SameSite=Lax session cookie that a cross-site POST does not.
   */
  async startPost(input: Omit<SsoStart, 'sessionToken'>, meta: RequestMeta): Promise<string> {
    this.idp.settings();
    const encoded = await this.refuseOnError(null, meta, () => postToRedirectEncoding(input.samlRequest));
    await this.refuseOnError(null, meta, () => readRedirectAuthnRequest(encoded));
    const params = new URLSearchParams({ SAMLRequest: encoded });
    // Passed on as sent, repeats included, so the GET refuses (and audits) what it would refuse by GET.
    for (const value of [input.relayState].flat()) if (typeof value === 'string' && value !== '') params.append('RelayState', value);
    return `/saml/sso/?${params.toString()}`;
  }

  /** Resumes a parked request after the hosted login page signed the user in. */
  async finish(ticket: string | undefined, sessionToken: string | undefined, meta: RequestMeta): Promise<SsoOutcome> {
    const settings = this.idp.settings();
    const pending = ticket ? await this.requests.find(ticket) : null;
    if (!pending) {
      return {
        kind: 'page',
        status: 400,
        title: 'Sign-in request expired',
        message: 'This sign-in request has expired or was already used. Go back to the application and start again.',
        ticket: 'clear',
      };
    }
    const session = await this.users.session(sessionToken);
    const found = await this.requests.findSp(pending.workspaceId, pending.serviceProviderId, session?.userId ?? null);
    if (!found) throw await this.refuse(null, meta, 'unknown_sp', 'The service provider of this request no longer exists', 400);
    const { sp, profile } = found;
    const flow: Flow = { settings, sp, request: pending.request, relayState: pending.relayState, meta };
    if (!sp.isActive) throw await this.refuse(sp, meta, 'sp_inactive', `The service provider ${sp.name} is disabled`, 400);

    const user = this.users.asMember(session, sp.workspaceId, profile);
    if (!user || !this.satisfies(user, pending)) {
      // Not signed in, signed in to another workspace, or (ForceAuthn) with a password typed before the request.
      const signOut = user !== null;
      return {
        kind: 'login',
        ticket: 'keep',
        signOut,
        location: this.users.loginLocation(settings.loginUrl, sp.workspaceId, FINISH_PATH),
      };
    }
    const met = assertedClass(user.amr, pending.request.requestedAuthnContext);
    if (!met && (await this.users.hasSecondFactor(user))) {
      // Password only, and the request wants a second factor the user has: step up, keep the ticket.
      return {
        kind: 'login',
        ticket: 'keep',
        signOut: false,
        location: this.users.loginLocation(settings.loginUrl, sp.workspaceId, FINISH_PATH, true),
      };
    }
    // Single use: two tabs finishing the same ticket get one assertion between them.
    if (!(await this.requests.consume(pending.id))) {
      return {
        kind: 'page',
        status: 400,
        title: 'Sign-in request expired',
        message: 'This sign-in request was already used. Go back to the application and start again.',
        ticket: 'clear',
      };
    }
    if (!met) return this.noAuthnContext(flow, 'clear');
    return this.issue(flow, user, 'clear', met);
  }

  /** For ForceAuthn: the password was typed after the request arrived. */
  private satisfies(user: BrowserUser, pending: PendingRequest): boolean {
    return !pending.request.forceAuthn || user.authenticatedAt.getTime() >= pending.createdAt.getTime() - 1000;
  }

  private async checkRequest(flow: Flow): Promise<void> {
    const { sp, request, meta, settings } = flow;
    const facts = { issuer: request.issuer, request_id: request.id };
    if (!sp.isActive) throw await this.refuse(sp, meta, 'sp_inactive', `The service provider ${sp.name} is disabled`, 400, facts);
    if (request.acsUrl !== undefined && request.acsUrl !== sp.acsUrl) {
      throw await this.refuse(
        sp,
        meta,
        'acs_mismatch',
        'The AssertionConsumerServiceURL of the request does not match the registered one',
        400,
        { ...facts, requested_acs_url: request.acsUrl, registered_acs_url: sp.acsUrl },
      );
    }
    if (request.protocolBinding !== undefined && request.protocolBinding !== BINDING.post) {
      throw await this.refuse(sp, meta, 'unsupported_binding', 'Only the HTTP-POST binding is supported for the Response', 400, {
        ...facts,
        protocol_binding: request.protocolBinding,
      });
    }
    if (request.destination !== undefined && !sameUrl(request.destination, settings.ssoUrl)) {
      throw await this.refuse(sp, meta, 'destination_mismatch', 'The Destination of the request is not this identity provider', 400, {
        ...facts,
        destination: request.destination,
      });
    }
    const freshness = requestFreshness(request.issueInstant, this.clock.now());
    if (!freshness.fresh) {
      throw await this.refuse(sp, meta, freshness.reason, freshness.message, 400, { ...facts, issue_instant: request.issueInstant });
    }
  }

  /**
   * One answer per AuthnRequest: the ID is claimed for the SP in the table every instance shares,
   * until the request would be stale anyway (decision 0208). Claimed only once the request passed
   * every check, so a refused request does not use up its ID.
   */
  private async claimRequestId(flow: Flow): Promise<void> {
    const { sp, request, meta } = flow;
    const now = this.clock.now();
    if (!(await this.seen.claim(sp, request.id, now, replayWindowEnd(now)))) {
      throw await this.refuse(
        sp,
        meta,
        'replayed_request',
        'This sign-in request was already used. Go back to the application and start the sign-in again.',
        400,
        { issuer: request.issuer, request_id: request.id, issue_instant: request.issueInstant },
      );
    }
  }

  private async relayState(flow: Flow, raw: unknown): Promise<string | null> {
    if (raw === undefined || raw === '') return flow.sp.defaultRelayState;
    if (typeof raw !== 'string' || raw.length > MAX_RELAY_STATE) {
      throw await this.refuse(
        flow.sp,
        flow.meta,
        'bad_relay_state',
        `RelayState must be sent once and be at most ${MAX_RELAY_STATE} characters`,
        400,
        { issuer: flow.request.issuer },
      );
    }
    return raw;
  }

  private async issue(flow: Flow, user: BrowserUser, ticket: 'clear' | 'keep', authnClass: string): Promise<SsoOutcome> {
    const { sp, request, settings, meta } = flow;
    const actor = { type: 'end_user' as const, id: user.userId, email: user.email };
    const facts = toAssertable(user);
    const registered = registeredRule(sp);
    // The registration changed while the request was parked so that it no longer meets the policy.
    const rule = ruleForPolicy(registered, request.nameIdPolicy);
    if (!rule) return this.invalidNameIdPolicy(flow, ticket, actor);
    // An SP that names the user it expects never gets an assertion for someone else (saml-core §3.4.1.4).
    const named = (subject: NonNullable<AuthnRequestInfo['subject']>) =>
      subjectMatches(subject, registered, facts, settings.pairwiseKey) || subjectMatches(subject, rule, facts, settings.pairwiseKey);
    if (request.subject && !named(request.subject)) {
      await this.recordFailure(
        sp,
        meta,
        'subject_mismatch',
        'The Subject of the request is not the signed-in user',
        { request_id: request.id, requested_name_id: request.subject.nameId ?? null, requested_format: request.subject.format ?? null },
        actor,
      );
      return this.statusPage(
        flow,
        STATUS.requester,
        STATUS.unknownPrincipal,
        'The signed-in user is not the Subject of the request',
        ticket,
      );
    }
    if (!user.emailVerified && usesEmailAsNameId(rule)) {
      await this.recordFailure(
        sp,
        meta,
        'email_unverified',
        'The user email is not verified; not asserted as an email NameID',
        { request_id: request.id },
        actor,
      );
      return {
        kind: 'page',
        status: 403,
        title: 'Verify your email first',
        message: `Your email address ${user.email} is not verified yet. Open the verification email we sent you (or request a new code), then sign in to ${sp.name} again.`,
        ticket,
      };
    }
    const nameId = nameIdValue(rule, facts, settings.pairwiseKey);
    if (!nameId) {
      throw await this.refuse(
        sp,
        meta,
        'empty_name_id',
        `The user has no ${sp.nameIdAttribute} to use as the NameID`,
        400,
        { request_id: request.id },
        actor,
      );
    }
    // Per SP per session: two SPs cannot match their sessions of one user by comparing SessionIndex.
    const sessionIndex = pairwiseId(settings.pairwiseKey, 'session', sp.spEntityId, user.sessionId);
    let built;
    try {
      built = buildLoginResponse(settings, {
        inResponseTo: request.id,
        acsUrl: sp.acsUrl,
        audience: sp.spEntityId,
        nameId,
        nameIdFormat: rule.format,
        sessionIndex,
        authnInstant: user.authenticatedAt,
        authnContextClassRef: authnClass,
        // An unverified address is never asserted, in the NameID or as a claim (one user could claim another's at the SP).
        attributes: mapAttributes(facts, user.emailVerified ? sp.attributeMapping : withoutEmail(sp.attributeMapping)),
        signAssertion: sp.signAssertions,
      });
    } catch (err) {
      this.logger.error(`building the SAML Response failed (request ${meta.requestId}): ${(err as Error).message}`);
      throw await this.refuse(sp, meta, 'build_error', 'The SAML Response could not be built', 500, { request_id: request.id }, actor);
    }
    await this.bus.publish('saml_sso_success', {
      workspaceId: sp.workspaceId,
      actor,
      request: meta,
      target: { type: 'SamlServiceProvider', id: sp.id },
      metadata: {
        assertion_id: built.assertionId,
        response_id: built.responseId,
        sp_entity_id: sp.spEntityId,
        request_id: request.id,
        session_id: user.sessionId,
        session_index: sessionIndex,
        authn_context_class: authnClass,
      },
    });
    const page = renderAutoPostPage({
      action: sp.acsUrl,
      samlResponse: Buffer.from(built.xml).toString('base64'),
      relayState: flow.relayState ?? undefined,
    });
    return { kind: 'post', page, ticket };
  }

  /** IsPassive with nobody signed in: a signed NoPassive status instead of the login page (saml-core §3.4.1). */
  private noPassive(flow: Flow): SsoOutcome {
    return this.statusPage(flow, STATUS.responder, STATUS.noPassive, 'The user is not signed in', 'keep');
  }

  /** RequestedAuthnContext we cannot satisfy: Requester/NoAuthnContext to the ACS (saml-core §3.3.2.2.1), audited. */
  private async noAuthnContext(flow: Flow, ticket: 'clear' | 'keep' = 'keep'): Promise<SsoOutcome> {
    const requested = flow.request.requestedAuthnContext!;
    await this.recordFailure(
      flow.sp,
      flow.meta,
      'authn_context_unsatisfiable',
      'The requested authentication context cannot be satisfied',
      {
        request_id: flow.request.id,
        comparison: requested.comparison,
        requested_classes: [...requested.classRefs, ...requested.declRefs]
          .slice(0, 4)
          .map((ref) => capText(ref))
          .join(' '),
      },
    );
    return this.statusPage(
      flow,
      STATUS.requester,
      STATUS.noAuthnContext,
      'The requested authentication context cannot be met for this user (a password, or a password and a second factor the user has)',
      ticket,
    );
  }

  /** A NameIDPolicy the SP's registration cannot produce: Requester/InvalidNameIDPolicy to the ACS (saml-core §3.4.1.1), audited. */
  private async invalidNameIdPolicy(
    flow: Flow,
    ticket: 'clear' | 'keep',
    actor?: { type: 'end_user'; id: string; email: string },
  ): Promise<SsoOutcome> {
    const { sp, request } = flow;
    const policy = request.nameIdPolicy;
    await this.recordFailure(
      sp,
      flow.meta,
      'name_id_policy_unsatisfiable',
      'The requested NameIDPolicy cannot be produced for this service provider',
      {
        request_id: request.id,
        requested_format: policy?.format ?? null,
        sp_name_qualifier: policy?.spNameQualifier ?? null,
        registered_format: sp.nameIdFormat,
      },
      actor,
    );
    const asked =
      policy?.spNameQualifier !== undefined && policy.spNameQualifier !== sp.spEntityId
        ? `identifiers qualified by ${policy.spNameQualifier}`
        : `the NameID format ${policy?.format ?? '(none)'}`;
    return this.statusPage(
      flow,
      STATUS.requester,
      STATUS.invalidNameIdPolicy,
      `This service provider is registered for the NameID format ${sp.nameIdFormat}; the request asks for ${asked}`,
      ticket,
    );
  }

  /** A signed Response carrying only a status, posted to the SP's ACS like an assertion. */
  private statusPage(flow: Flow, topLevel: string, status: string, message: string, ticket: 'clear' | 'keep'): SsoOutcome {
    const built = buildStatusResponse(flow.settings, { inResponseTo: flow.request.id, acsUrl: flow.sp.acsUrl, status, topLevel, message });
    const page = renderAutoPostPage({
      action: flow.sp.acsUrl,
      samlResponse: Buffer.from(built.xml).toString('base64'),
      relayState: flow.relayState ?? undefined,
    });
    return { kind: 'post', page, ticket };
  }

  private async refuseOnError<T>(sp: SamlServiceProvider | null, meta: RequestMeta, fn: () => T): Promise<T> {
    try {
      return fn();
    } catch (err) {
      if (err instanceof SamlError) {
        throw await this.refuse(sp, meta, 'malformed_request', err.message, err.status, {}, undefined, err.code);
      }
      throw err;
    }
  }

  /** Records saml_sso_failure and returns the error to throw (rendered as an HTML page). */
  private async refuse(
    sp: SamlServiceProvider | null,
    meta: RequestMeta,
    reason: string,
    message: string,
    status: number,
    metadata: Record<string, unknown> = {},
    actor?: { type: 'end_user'; id: string; email: string },
    code = `saml_${reason}`,
  ): Promise<DomainError> {
    await this.recordFailure(sp, meta, reason, message, metadata, actor);
    return new DomainError(samlRefusal(code), message);
  }

  /**
   * saml_sso_failure for the SP's workspace, every caller-supplied string capped. A refusal with
   * no SP (unknown Issuer, unreadable request) belongs to no workspace: counted in /metrics and
   * logged once instead, so anonymous callers cannot fill the audit table (decision 0206).
   */
  private async recordFailure(
    sp: SamlServiceProvider | null,
    meta: RequestMeta,
    reason: string,
    message: string,
    metadata: Record<string, unknown>,
    actor?: { type: 'end_user'; id: string; email: string },
  ): Promise<void> {
    if (!sp) {
      unattributedFailures.inc({ reason });
      this.logger.warn(
        `SSO refused before any service provider was identified: ${reason} (request ${meta.requestId}, ip ${meta.ip}): ${capText(message)}`,
      );
      return;
    }
    await this.bus.publish('saml_sso_failure', {
      workspaceId: sp.workspaceId,
      // The User-Agent is the caller's text too: the same cap as the metadata.
      request: { ...meta, userAgent: capText(meta.userAgent) },
      message,
      actor: actor ?? { type: 'anonymous', id: null },
      target: { type: 'SamlServiceProvider', id: sp.id },
      metadata: cappedMetadata({ reason, sp_entity_id: sp.spEntityId, ...metadata }),
    });
  }
}

function toAssertable(user: BrowserUser): AssertableUser {
  return { id: user.userId, email: user.email, firstName: user.firstName, lastName: user.lastName, emailVerified: user.emailVerified };
}

/** The NameID would carry the email address (emailAddress, or unspecified mapped to email). */
function usesEmailAsNameId(rule: NameIdRule): boolean {
  return rule.attribute === 'email' && rule.format !== NAME_ID_FORMAT.persistent && rule.format !== NAME_ID_FORMAT.transient;
}

/** The NameID the SP's registration asks for (name_id_format, name_id_attribute). */
function registeredRule(sp: SamlServiceProvider): NameIdRule {
  return { spEntityId: sp.spEntityId, format: sp.nameIdFormat, attribute: sp.nameIdAttribute as UserFieldPath };
}

function withoutEmail(mapping: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(mapping).filter(([, path]) => path !== 'email'));
}

/** URL equality after normalisation (case of scheme/host, default port, empty path). */
function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).toString() === new URL(b).toString();
  } catch {
    return a === b;
  }
}
