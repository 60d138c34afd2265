import { Get, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiParam } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Doc, NoBody, ReturnsText } from '../api-docs/decorators';
import { PageErrors, type PageErrorSpec } from '../api-docs/routes';
import { RateLimit, RateLimitGuard } from '../common/rate-limit/rate-limit.guard';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { sessionCookie } from '../hosted-login/browser-session-cookie';
import { BrowserSessionsService } from '../hosted-login/browser-sessions.service';
import { clearSamlPendingCookie, SAML_PENDING_COOKIE, setSamlPendingCookie } from './saml/saml-pending-cookie';
import { SamlUpstreamService, type SamlPostForm } from './saml/saml-upstream.service';
import { connectionForPage } from './sign-in-connection';
import { SsoConnectionsRepository } from './sso-connections.repository';
import { sendUpstreamResult } from './upstream-answer';
import { BrowserPages } from '../common/controller-kinds';

const NO_CONNECTION: PageErrorSpec = [404, 'no SAML connection has this id'];
const CONNECTION_ID = {
  name: 'id',
  description: 'The SAML connection (external provider) id',
  example: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11',
};

/**
 * Our service-provider endpoints of a SAML connection (docs/sso-connections.md, "SAML
 * connections"): the ACS the IdP posts its Response to, and the SP metadata to import at the IdP.
 * The sign-in starts at `GET /auth/sso/{id}/` (SsoSignInController).
 */
@BrowserPages('auth/sso/:id/saml', 'sso-connections')
@UseGuards(RateLimitGuard)
export class SsoSamlController {
  constructor(
    private readonly connections: SsoConnectionsRepository,
    private readonly saml: SamlUpstreamService,
    private readonly browser: BrowserSessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('acs')
  @RateLimit('login')
  @Doc(
    'SAML assertion consumer service (HTTP-POST binding)',
    "The connection's acs_url, where the IdP's page posts its Response. The signature over the assertion or the response, the Issuer, Destination and Recipient, the Audience, the validity window (two minutes of skew), InResponseTo (a request this browser started, from its sso_saml cookie) and the assertion ID (accepted once) are checked; the person is then matched and signed in to the hosted login. A refusal is a 4xx HTML page naming the reason in words, audited as login_failure with metadata.reason and listed in the connection's attempts.",
  )
  @ApiParam(CONNECTION_ID)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['SAMLResponse'],
      properties: {
        SAMLResponse: {
          type: 'string',
          description: 'The Response, base64-encoded (at most 256 KiB)',
          example: 'PHNhbWxwOlJlc3BvbnNlIHhtbG5zOnNhbWxwPSJ1cm46b2FzaXM6bmFtZXM6dGM6U0FNTDoyLjA6cHJvdG9jb2wiPuKApjwvc2FtbHA6UmVzcG9uc2U+',
        },
        RelayState: {
          type: 'string',
          description: 'For an IdP-initiated sign-in the connection allows: where to go (a relative path)',
          example: '/dashboard',
        },
      },
    },
  })
  @NoBody(303, "Signed in: the esid session cookie is set and the browser goes to the sign-in's next (or straight on to the application)")
  @PageErrors(
    [400, 'the answer was refused (signature_invalid, audience_mismatch, response_expired, response_replayed, state_mismatch, …)'],
    [403, 'the person may not sign in (user_not_provisioned, user_deactivated, …)'],
    NO_CONNECTION,
    [413, 'the form is larger than 384 KiB (the ACS limit, decision 0948)'],
    [429, 'too many sign-ins from this IP; Retry-After says when to retry'],
  )
  async acs(@Param('id') id: string, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    const connection = await connectionForPage(this.connections, id, 'saml', res, meta);
    if (!connection) return;
    const cookies = (req.cookies ?? {}) as Record<string, unknown>;
    const previous = await this.browser.sessionFor(sessionCookie(req));
    const answer = await this.saml.acs(connection, (req.body ?? {}) as SamlPostForm, cookies[SAML_PENDING_COOKIE], meta, previous);
    if (answer.pendingCookie) setSamlPendingCookie(res, answer.pendingCookie);
    else clearSamlPendingCookie(res);
    sendUpstreamResult(res, answer.result, this.config.COOKIE_SECURE, meta.requestId);
  }

  @Get('metadata')
  @Doc(
    'SAML service provider metadata of a connection',
    "The connection's sp_metadata_url (also its SP entity id): the EntityDescriptor to import at the IdP, with the ACS (HTTP-POST), WantAssertionsSigned and the NameID formats accepted (persistent, emailAddress).",
  )
  @ApiParam(CONNECTION_ID)
  @ReturnsText(
    200,
    'application/samlmetadata+xml',
    'EntityDescriptor of our service provider for this connection',
    '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://id.example.com/auth/sso/3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11/saml/metadata">…</EntityDescriptor>',
  )
  @PageErrors(NO_CONNECTION)
  async metadata(@Param('id') id: string, @Res() res: Response, @ReqMeta() meta: RequestMeta): Promise<void> {
    const connection = await connectionForPage(this.connections, id, 'saml', res, meta);
    if (!connection) return;
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/samlmetadata+xml').send(this.saml.metadata(connection));
  }
}
