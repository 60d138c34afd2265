import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { DomainEventBus } from '../../events/domain-event-bus';
import type { DomainEvents } from '../../events/domain-events';
import { IdpRuntime } from '../idp/idp-runtime';
import { buildStatusResponse } from '../protocol/login-response.builder';
import { ResponseThreads } from '../protocol/response-threads';
import { NameIdRule, nameIdValue } from '../protocol/name-id';
import { pairwiseId } from '../protocol/pairwise';
import { mapAttributes } from '../protocol/user-claims';
import { actorOf, assertableOf, BrowserUser } from './browser-user';
import { refusedWithPage, SamlPost, SsoFlow, SsoRefusal } from './sso-outcome';
import { signingThreadCount } from './signing-threads';
import { SsoRequestChecks } from './sso-request-checks.service';

/**
 * Whether the request's ID was claimed on arrival ('claimed'), or is to be claimed with the assertion's audit row
 * in one statement ('now', a signed-in browser answered at once: decision 0988).
 */
export type IdClaim = 'claimed' | 'now';

/**
 * Issues the signed Responses of SSO and nothing else: an assertion for the signed-in user (and
 * its saml_sso_success event, audited in the same transaction, or in the statement that claims the
 * request's ID), or a Response that carries only a status. Both go to the SP's ACS as a SamlPost;
 * the controller renders the auto-submit page.
 */
@Injectable()
export class SsoResponses implements OnModuleDestroy {
  private readonly logger = new Logger('SamlSso');
  /** Where login Responses are built and signed (decision 1026); null while the IdP is not configured (SSO answers 503). */
  private readonly signing: ResponseThreads | null;

  constructor(
    private readonly bus: DomainEventBus,
    private readonly checks: SsoRequestChecks,
    idp: IdpRuntime,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.signing = idp.state.configured ? new ResponseThreads(idp.state.settings, signingThreadCount(config.SAML_SIGNING_THREADS)) : null;
  }

  /** No signing thread outlives the application's close(). */
  async onModuleDestroy(): Promise<void> {
    await this.signing?.close();
  }

  /**
   * The assertion for `user` under `rule` (the checks passed), or the refusal when no Response can
   * be built: the user has no value for the NameID, or building or signing failed (our fault: 500).
   * With `claim` 'now', the request's ID is claimed first for a refusal, and with the audit row for
   * the assertion: a replay is refused as one, and its assertion never leaves.
   */
  async assertion(flow: SsoFlow, user: BrowserUser, rule: NameIdRule, authnClass: string, claim: IdClaim): Promise<SamlPost | SsoRefusal> {
    const { sp, request, settings, meta } = flow;
    const actor = actorOf(user);
    const facts = assertableOf(user);
    const nameId = nameIdValue(rule, facts, settings.pairwiseKey);
    if (!nameId) {
      const empty = refusedWithPage(
        sp,
        'empty_name_id',
        `The user has no ${sp.nameIdAttribute} to use as the NameID`,
        { request_id: request.id },
        { actor },
      );
      return (claim === 'now' ? await this.checks.claimId(flow) : null) ?? empty;
    }
    // Per SP per session: two SPs cannot match their sessions of one user by comparing SessionIndex.
    const sessionIndex = pairwiseId(settings.pairwiseKey, 'session', sp.spEntityId, user.sessionId);
    let built;
    try {
      // Built and signed on a signing thread when the process has one (decision 1026); a failure there lands here too.
      if (!this.signing) throw new Error('the SAML identity provider is not configured');
      built = await this.signing.loginResponse({
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
      const failed = refusedWithPage(sp, 'build_error', 'The SAML Response could not be built', { request_id: request.id }, { actor });
      return (claim === 'now' ? await this.checks.claimId(flow) : null) ?? failed;
    }
    const success: DomainEvents['saml_sso_success'] = {
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
    };
    if (claim === 'claimed') {
      await this.bus.publish('saml_sso_success', success);
    } else {
      const replayed = await this.checks.claimIdRecording(flow, success);
      if (replayed) return replayed;
    }
    return toAcs(flow, built.xml);
  }

  /** A signed Response carrying only a status (NoPassive, NoAuthnContext, …), posted to the SP's ACS like an assertion. */
  status(flow: SsoFlow, answer: { topLevel: string; status: string; message: string }): SamlPost {
    const { topLevel, status, message } = answer;
    const built = buildStatusResponse(flow.settings, { inResponseTo: flow.request.id, acsUrl: flow.sp.acsUrl, status, topLevel, message });
    return toAcs(flow, built.xml);
  }
}

function toAcs(flow: SsoFlow, xml: string): SamlPost {
  return { acsUrl: flow.sp.acsUrl, samlResponse: Buffer.from(xml).toString('base64'), relayState: flow.relayState ?? undefined };
}

function withoutEmail(mapping: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(mapping).filter(([, path]) => path !== 'email'));
}
