import { Injectable } from '@nestjs/common';
import { type CachedCredential, CredentialCache } from '../../common/auth/credential-cache';
import { Clock } from '../../common/clock';
import { UnitOfWork } from '../../database/unit-of-work';
import type { DomainEvents } from '../../events/domain-events';
import { AuthnRequestInfo, postToRedirectEncoding, readRedirectAuthnRequest } from '../protocol/authn-request.parser';
import { assertedClass, TWO_FACTOR_AMR } from '../protocol/authn-context';
import { NameIdRule, ruleForPolicy, subjectMatches } from '../protocol/name-id';
import { replayWindowEnd, requestFreshness } from '../protocol/request-freshness';
import { SamlError } from '../protocol/saml.errors';
import { BINDING, NAME_ID_FORMAT, STATUS } from '../protocol/saml-urns';
import { UserFieldPath } from '../protocol/user-claims';
import { SamlServiceProvider } from '../sps/entities/saml-service-provider.entity';
import { spRegistrationTag } from '../sps/saml-sps.repository';
import { capText } from './audit-text';
import { actorOf, assertableOf, BrowserUser } from './browser-user';
import { PendingRequest, SsoRequestsRepository } from './sso-requests.repository';
import { EndUserActor, catalogued, isRefusal, refusedWithPage, SsoFlow, SsoPageRefusal, SsoRefusal } from './sso-outcome';
import { SeenRequestsRepository } from './seen-requests.repository';

const MAX_RELAY_STATE = 2048;

/** An SP registration as the credential cache keeps it. */
interface CachedSp extends CachedCredential {
  kind: 'saml-sp';
  sp: SamlServiceProvider;
}

/**
 * The checks of an incoming AuthnRequest, each answering the refusal it leads to (or null when it
 * passes), never an HTTP answer: readable (parse, size bounds), from a registered and active SP,
 * asking for what the registration allows (ACS URL, binding, Destination), fresh, not a replay,
 * and with a NameIDPolicy, RequestedAuthnContext and Subject this IdP can meet for the user.
 * Decisions 0201, 0204, 0208 and 0209 say why each one is there.
 */
@Injectable()
export class SsoRequestChecks {
  constructor(
    private readonly requests: SsoRequestsRepository,
    private readonly seen: SeenRequestsRepository,
    private readonly clock: Clock,
    private readonly uow: UnitOfWork,
    private readonly cache: CredentialCache,
  ) {}

  /** The AuthnRequest of the Redirect binding's SAMLRequest parameter, or the refusal of an unreadable one. */
  read(samlRequest: unknown): AuthnRequestInfo | SsoPageRefusal {
    return unlessMalformed(() => readRedirectAuthnRequest(samlRequest));
  }

  /** The HTTP-POST binding's SAMLRequest in the Redirect encoding, once it reads as an AuthnRequest. */
  readPosted(samlRequest: unknown): string | SsoPageRefusal {
    const encoded = unlessMalformed(() => postToRedirectEncoding(samlRequest));
    if (typeof encoded !== 'string') return encoded;
    const read = this.read(encoded);
    return isRefusal(read) ? read : encoded;
  }

  /**
   * The SP the request's Issuer names, kept in the credential cache for a few seconds (decision 1025): every SSO of
   * an SP reads the same registration, and a change to it (SamlSpsService) drops it on every instance before the
   * change is answered. An unknown Issuer is asked of the table every time (absence is never kept), so an SP
   * registered a moment ago is found at once; with the cache off every call reads the table. The SP served is
   * shared between requests: nothing on the SSO path writes to it.
   */
  async registeredSp(request: AuthnRequestInfo): Promise<SamlServiceProvider | SsoPageRefusal> {
    const entityId = request.issuer;
    // Other entries' keys are hex hashes or carry other prefixes: this one names nothing else.
    const cached = await this.cache.resolve<CachedSp>('saml-sp', `saml-sp-entity:${entityId}`, async () => {
      const sp = await this.requests.findSpByEntityId(entityId);
      return sp ? { principal: { kind: 'saml-sp', sp }, expiresAt: null, tags: [spRegistrationTag(sp.id)] } : undefined;
    });
    if (cached) return cached.sp;
    return refusedWithPage(null, 'unknown_sp', `No service provider is registered with the entity id ${request.issuer}`, {
      issuer: request.issuer,
    });
  }

  /** The SP of a parked request: still registered and active. */
  async parkedSp(pending: PendingRequest): Promise<SamlServiceProvider | SsoPageRefusal> {
    const sp = await this.requests.findSp(pending.workspaceId, pending.serviceProviderId);
    if (!sp) return refusedWithPage(null, 'unknown_sp', 'The service provider of this request no longer exists');
    if (!sp.isActive) return refusedWithPage(sp, 'sp_inactive', `The service provider ${sp.name} is disabled`);
    return sp;
  }

  /** The RelayState to send back: as received (once, bounded), or the SP's default. */
  relayState(sp: SamlServiceProvider, request: AuthnRequestInfo, raw: unknown): string | null | SsoPageRefusal {
    if (raw === undefined || raw === '') return sp.defaultRelayState;
    if (typeof raw !== 'string' || raw.length > MAX_RELAY_STATE) {
      return refusedWithPage(sp, 'bad_relay_state', `RelayState must be sent once and be at most ${MAX_RELAY_STATE} characters`, {
        issuer: request.issuer,
      });
    }
    return raw;
  }

  /** What the request asks of the SP's registration and of this IdP, and whether it is fresh. */
  constraints(flow: SsoFlow): SsoRefusal | null {
    const { sp, request, settings } = flow;
    const facts = { issuer: request.issuer, request_id: request.id };
    if (!sp.isActive) return refusedWithPage(sp, 'sp_inactive', `The service provider ${sp.name} is disabled`, facts);
    if (request.acsUrl !== undefined && request.acsUrl !== sp.acsUrl) {
      return refusedWithPage(sp, 'acs_mismatch', 'The AssertionConsumerServiceURL of the request does not match the registered one', {
        ...facts,
        requested_acs_url: request.acsUrl,
        registered_acs_url: sp.acsUrl,
      });
    }
    if (request.protocolBinding !== undefined && request.protocolBinding !== BINDING.post) {
      return refusedWithPage(sp, 'unsupported_binding', 'Only the HTTP-POST binding is supported for the Response', {
        ...facts,
        protocol_binding: request.protocolBinding,
      });
    }
    if (request.destination !== undefined && !sameUrl(request.destination, settings.ssoUrl)) {
      return refusedWithPage(sp, 'destination_mismatch', 'The Destination of the request is not this identity provider', {
        ...facts,
        destination: request.destination,
      });
    }
    const freshness = requestFreshness(request.issueInstant, this.clock.now());
    if (!freshness.fresh) {
      return refusedWithPage(sp, freshness.reason, freshness.message, { ...facts, issue_instant: request.issueInstant });
    }
    return null;
  }

  /**
   * One answer per AuthnRequest: the ID is claimed for the SP in the table every instance shares,
   * until the request would be stale anyway (decision 0208). Claimed only once the request passed
   * every other check, so a refused request does not use up its ID.
   */
  async claimId(flow: SsoFlow): Promise<SsoRefusal | null> {
    const { sp, request } = flow;
    const now = this.clock.now();
    if (await this.seen.claim(sp, request.id, now, replayWindowEnd(now))) return null;
    return replayed(flow);
  }

  /**
   * claimId for an assertion answered at once (a signed-in browser): the ID is claimed and the assertion's
   * saml_sso_success row written in one statement, the row only when the ID is claimed (decision 0988). Null when
   * claimed; the replay's refusal otherwise (the assertion is then never sent).
   */
  async claimIdRecording(flow: SsoFlow, success: DomainEvents['saml_sso_success']): Promise<SsoRefusal | null> {
    const { sp, request } = flow;
    const now = this.clock.now();
    const claimed = await this.uow.runAsOneStatement(
      (events) => events.emit('saml_sso_success', success),
      (on, riders) => this.seen.claim(sp, request.id, now, replayWindowEnd(now), { on, riders }),
      (first) => first,
    );
    return claimed ? null : replayed(flow);
  }

  /**
   * The NameID rule the request's NameIDPolicy leaves within the registration, or the
   * InvalidNameIDPolicy status (saml-core §3.4.1.1). Asked on arrival (signing in would not change
   * it) and again before issuing (the registration may have changed while the request was parked).
   */
  nameIdRule(flow: SsoFlow, actor?: EndUserActor): NameIdRule | SsoRefusal {
    const { sp, request } = flow;
    const rule = ruleForPolicy(registeredRule(sp), request.nameIdPolicy);
    if (rule) return rule;
    const policy = request.nameIdPolicy;
    const asked =
      policy?.spNameQualifier !== undefined && policy.spNameQualifier !== sp.spEntityId
        ? `identifiers qualified by ${policy.spNameQualifier}`
        : `the NameID format ${policy?.format ?? '(none)'}`;
    return {
      answer: 'status',
      failure: {
        sp,
        reason: 'name_id_policy_unsatisfiable',
        message: 'The requested NameIDPolicy cannot be produced for this service provider',
        metadata: {
          request_id: request.id,
          requested_format: policy?.format ?? null,
          sp_name_qualifier: policy?.spNameQualifier ?? null,
          registered_format: sp.nameIdFormat,
        },
        actor,
      },
      topLevel: STATUS.requester,
      status: STATUS.invalidNameIdPolicy,
      message: `This service provider is registered for the NameID format ${sp.nameIdFormat}; the request asks for ${asked}`,
    };
  }

  /** A RequestedAuthnContext that neither a password nor a second factor can meet is answered at once. */
  authnContextPossible(flow: SsoFlow): SsoRefusal | null {
    const requested = flow.request.requestedAuthnContext;
    if (assertedClass(['pwd'], requested) || assertedClass(TWO_FACTOR_AMR, requested)) return null;
    return this.noAuthnContext(flow);
  }

  /** RequestedAuthnContext we cannot satisfy: Requester/NoAuthnContext to the ACS (saml-core §3.3.2.2.1), recorded. */
  noAuthnContext(flow: SsoFlow, user?: BrowserUser): SsoRefusal {
    const requested = flow.request.requestedAuthnContext!;
    return {
      answer: 'status',
      failure: {
        sp: flow.sp,
        // The signed-in person the request could not be met for; nobody when it is refused before sign-in.
        actor: user ? actorOf(user) : undefined,
        reason: 'authn_context_unsatisfiable',
        message: 'The requested authentication context cannot be satisfied',
        metadata: {
          request_id: flow.request.id,
          comparison: requested.comparison,
          requested_classes: [...requested.classRefs, ...requested.declRefs]
            .slice(0, 4)
            .map((ref) => capText(ref))
            .join(' '),
        },
      },
      topLevel: STATUS.requester,
      status: STATUS.noAuthnContext,
      message:
        'The requested authentication context cannot be met for this user (a password, or a password and a second factor the user has)',
    };
  }

  /**
   * IsPassive when the user would have to be asked something: a signed NoPassive status instead of the login
   * page (saml-core §3.4.1), not recorded. Its message says what would have been asked: a sign-in, or the
   * second factor a signed-in user owes.
   */
  noPassive(user: BrowserUser | null = null): SsoRefusal {
    const message = user
      ? 'The user is signed in but the request needs a second factor, which cannot be asked passively'
      : 'The user is not signed in';
    return { answer: 'status', failure: null, topLevel: STATUS.responder, status: STATUS.noPassive, message };
  }

  /** For ForceAuthn: the password was typed after the request arrived. */
  satisfiesForceAuthn(user: BrowserUser, pending: PendingRequest): boolean {
    return !pending.request.forceAuthn || user.authenticatedAt.getTime() >= pending.createdAt.getTime() - 1000;
  }

  /**
   * Whether this user may be asserted to the SP under `rule`: the Subject the SP named, if any, is
   * this user (saml-core §3.4.1.4), and an email NameID is only ever an address the user proved.
   */
  assertable(flow: SsoFlow, user: BrowserUser, rule: NameIdRule): SsoRefusal | null {
    const { sp, request, settings } = flow;
    const facts = assertableOf(user);
    const registered = registeredRule(sp);
    const subject = request.subject;
    if (
      subject &&
      !subjectMatches(subject, registered, facts, settings.pairwiseKey) &&
      !subjectMatches(subject, rule, facts, settings.pairwiseKey)
    ) {
      return {
        answer: 'status',
        failure: {
          sp,
          reason: 'subject_mismatch',
          message: 'The Subject of the request is not the signed-in user',
          metadata: { request_id: request.id, requested_name_id: subject.nameId ?? null, requested_format: subject.format ?? null },
          actor: actorOf(user),
        },
        topLevel: STATUS.requester,
        status: STATUS.unknownPrincipal,
        message: 'The signed-in user is not the Subject of the request',
      };
    }
    if (!user.emailVerified && usesEmailAsNameId(rule)) {
      return {
        answer: 'page',
        failure: {
          sp,
          reason: 'email_unverified',
          message: 'The user email is not verified; not asserted as an email NameID',
          metadata: { request_id: request.id },
          actor: actorOf(user),
        },
        ...catalogued('saml_email_unverified'),
        title: 'Verify your email first',
        message: `Your email address ${user.email} is not verified yet. Open the verification email we sent you (or request a new code), then sign in to ${sp.name} again.`,
      };
    }
    return null;
  }
}

/** A SamlError of the parser (unreadable, oversized, not an AuthnRequest) as the refusal malformed_request, before any SP is known. */
function unlessMalformed<T>(read: () => T): T | SsoPageRefusal {
  try {
    return read();
  } catch (err) {
    if (err instanceof SamlError) return refusedWithPage(null, 'malformed_request', err.message, {}, { code: err.code });
    throw err;
  }
}

/** The NameID the SP's registration asks for (name_id_format, name_id_attribute). */
export function registeredRule(sp: SamlServiceProvider): NameIdRule {
  return { spEntityId: sp.spEntityId, format: sp.nameIdFormat, attribute: sp.nameIdAttribute as UserFieldPath };
}

/** The NameID would carry the email address (emailAddress, or unspecified mapped to email). */
function usesEmailAsNameId(rule: NameIdRule): boolean {
  return rule.attribute === 'email' && rule.format !== NAME_ID_FORMAT.persistent && rule.format !== NAME_ID_FORMAT.transient;
}

/** URL equality after normalisation (case of scheme/host, default port, empty path). */
function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).toString() === new URL(b).toString();
  } catch {
    return a === b;
  }
}

/** A request whose ID this SP has used already (decision 0208). */
function replayed(flow: SsoFlow): SsoRefusal {
  const { sp, request } = flow;
  return refusedWithPage(
    sp,
    'replayed_request',
    'This sign-in request was already used. Go back to the application and start the sign-in again.',
    { issuer: request.issuer, request_id: request.id, issue_instant: request.issueInstant },
  );
}
