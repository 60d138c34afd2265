import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { SecretBox } from '../../common/crypto/secret-box';
import type { RequestMeta } from '../../common/request-context';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import type { BrowserSession } from '../../hosted-login/browser-sessions.service';
import { forcesAuthentication } from '../../hosted-login/continuation-target';
import { safeNext } from '../../hosted-login/safe-next';
import type { SsoConnection } from '../entities/sso-connection.entity';
import { UpstreamRefusal } from '../upstream-refusals';
import { UpstreamSignInResult, UpstreamSignInService } from '../upstream-sign-in.service';
import { SamlAssertionIdsRepository } from './saml-assertion-ids.repository';
import { SamlConnectionSettings, spEndpoints, SpEndpoints } from './saml-connection-settings';
import { openPending, PendingSamlRequest, SAML_REQUEST_TTL_MS, sealPending } from './saml-pending-requests';
import { SamlRefusal, upstreamRefusalOf } from './saml-refusal';
import { VerifiedSamlSignIn, verifySamlResponse } from './saml-response-verifier';
import { spMetadataXml, startSamlRequest } from './saml-sp';

/** Where the start of a sign-in sends the browser, and the pending-requests cookie that binds the answer to it. */
export type SamlStart = { kind: 'redirect'; location: string; pendingCookie: string } | UpstreamSignInResult;

/** What the ACS answers, and the browser's pending requests without the one just answered (null: none left). */
export interface SamlAnswer {
  result: UpstreamSignInResult;
  pendingCookie: string | null;
}

/** The HTTP-POST form the IdP's page submits to our ACS. */
export interface SamlPostForm {
  SAMLResponse?: unknown;
  RelayState?: unknown;
}

/**
 * The SAML 2.0 half of enterprise SSO (docs/sso-connections.md, "SAML connections"): we are the
 * service provider. An AuthnRequest goes to the IdP over HTTP-Redirect with its ID sealed in the
 * browser's cookie; the IdP's HTTP-POST answer is verified (saml-response-verifier.ts), its
 * assertion ID claimed once in the table every instance shares, and the person handed to
 * completeUpstreamSignIn.
 */
@Injectable()
export class SamlUpstreamService {
  constructor(
    private readonly upstream: UpstreamSignInService,
    private readonly assertionIds: SamlAssertionIdsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly box: SecretBox,
  ) {}

  /** Our SP metadata for the connection (entity id, ACS, signed assertions wanted). */
  metadata(connection: SsoConnection): string {
    return spMetadataXml(this.sp(connection));
  }

  /**
   * Redirects the browser to the IdP with an AuthnRequest whose ID joins the browser's pending
   * requests; with ForceAuthn when the application forces this sign-in (decision 1020, as 0986 for OIDC).
   */
  async start(connection: SsoConnection, next: string, pendingCookie: unknown, request: RequestMeta): Promise<SamlStart> {
    const settings = this.settings(connection);
    if (!settings) return this.upstream.refuse(connection, new UpstreamRefusal('upstream_error', 'the connection has no IdP yet'), request);
    const now = this.clock.now().getTime();
    const started = startSamlRequest(settings, this.sp(connection), forcesAuthentication(next));
    const pending = openPending(this.box, pendingCookie, now);
    pending.push({ id: started.requestId, connectionId: connection.id, next, expiresAt: now + SAML_REQUEST_TTL_MS });
    return { kind: 'redirect', location: started.redirectUrl, pendingCookie: sealPending(this.box, pending) };
  }

  /**
   * The IdP's answer at the ACS: verified against the connection and the requests this browser
   * waits on, its assertion ID spent, then the sign-in completed; or refused with a typed reason.
   */
  async acs(
    connection: SsoConnection,
    form: SamlPostForm,
    pendingCookie: unknown,
    request: RequestMeta,
    previous: BrowserSession | null,
  ): Promise<SamlAnswer> {
    const now = this.clock.now();
    const pending = openPending(this.box, pendingCookie, now.getTime()).filter((p) => p.connectionId === connection.id);
    const refuse = async (refusal: UpstreamRefusal): Promise<SamlAnswer> => ({
      result: await this.upstream.refuse(connection, refusal, request),
      pendingCookie: this.remaining(pendingCookie, now.getTime(), null),
    });
    const settings = this.settings(connection);
    if (!settings) return refuse(new UpstreamRefusal('upstream_error', 'the connection has no IdP yet'));

    let verified: VerifiedSamlSignIn;
    try {
      verified = await verifySamlResponse({
        samlResponse: form.SAMLResponse,
        connection: settings,
        sp: this.sp(connection),
        pendingRequestIds: pending.map((p) => p.id),
        now,
      });
    } catch (err) {
      if (err instanceof SamlRefusal) return refuse(upstreamRefusalOf(err));
      throw err;
    }
    const facts = { subject: verified.subject, email: verified.email ?? undefined };
    // The ID is spent before any other check, and the person its subject is bound to read with it (decision 1022).
    const claimed = await this.assertionIds.claimAndFindBound(
      {
        workspaceId: connection.workspaceId,
        connectionId: connection.id,
        assertionId: verified.assertionId,
        keepUntil: verified.replayableUntil,
        now,
      },
      { issuer: settings.idpEntityId, subject: verified.subject },
    );
    if (!claimed) {
      return refuse(new UpstreamRefusal('response_replayed', `assertion ${verified.assertionId} was already used`, facts));
    }
    const answered = pending.find((p) => p.id === verified.inResponseTo);
    const result = await this.upstream.completeUpstreamSignIn(
      connection,
      {
        issuer: settings.idpEntityId,
        subject: verified.subject,
        email: verified.email,
        emailVerified: verified.emailVerified,
        firstName: verified.names.first,
        lastName: verified.names.last,
        groups: verified.groups,
        upstreamMfa: verified.upstreamMfa,
      },
      { request, next: answered?.next ?? safeNext(form.RelayState), previous },
      claimed,
    );
    return { result, pendingCookie: this.remaining(pendingCookie, now.getTime(), answered ?? null) };
  }

  /** The cookie without the answered request and expired ones; null when nothing is left to wait on. */
  private remaining(pendingCookie: unknown, now: number, answered: PendingSamlRequest | null): string | null {
    const left = openPending(this.box, pendingCookie, now).filter((p) => p.id !== answered?.id);
    return left.length > 0 ? sealPending(this.box, left) : null;
  }

  private sp(connection: SsoConnection): SpEndpoints {
    return spEndpoints(this.config.PUBLIC_BASE_URL, connection.id);
  }

  /** The SAML half's view of the connection, or null while its IdP is not configured. */
  private settings(connection: SsoConnection): SamlConnectionSettings | null {
    if (!connection.samlIdpEntityId || !connection.samlIdpSsoUrl || connection.samlIdpCertificates.length === 0) return null;
    const mapping = connection.mapping;
    return {
      id: connection.id,
      workspaceId: connection.workspaceId,
      idpEntityId: connection.samlIdpEntityId,
      idpSsoUrl: connection.samlIdpSsoUrl,
      idpCertificates: connection.samlIdpCertificates,
      allowUnsolicited: connection.samlAllowUnsolicited,
      trustUpstreamMfa: connection.trustUpstreamMfa,
      attributeMapping: { email: mapping.email, firstName: mapping.given_name, lastName: mapping.family_name, groups: mapping.groups },
      subjectAttribute: mapping.subject ?? null,
    };
  }
}
