import { Get, Inject, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { renderErrorPage } from '../common/html/error-page';
import { RateLimit, RateLimitGuard } from '../common/rate-limit/rate-limit.guard';
import { ReqMeta, type RequestMeta } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { sessionCookie } from '../hosted-login/browser-session-cookie';
import { BrowserSessionsService } from '../hosted-login/browser-sessions.service';
import { safeNext } from '../hosted-login/safe-next';
import { OIDC_FLOW_TTL_MS, OidcUpstreamService } from './oidc/oidc-upstream.service';
import { SAML_PENDING_COOKIE, setSamlPendingCookie } from './saml/saml-pending-cookie';
import { SamlUpstreamService } from './saml/saml-upstream.service';
import { SsoConnectionsRepository } from './sso-connections.repository';
import { sendUpstreamResult } from './upstream-answer';
import { isUuid } from '../common/ids';
import type { SsoConnection } from './entities/sso-connection.entity';
import { BrowserPages } from '../common/controller-kinds';

/** The cookie that binds an OIDC sign-in's answer to the browser that started it (decision 0412). */
export const SSO_FLOW_COOKIE = 'sso_flow';
const FLOW_COOKIE_PATH = '/auth/sso/';

/**
 * The browser side of enterprise SSO: `GET /auth/sso/{id}/?next=` starts a sign-in through the
 * connection; an OIDC provider answers at `callback` (and `jwks` serves our private_key_jwt
 * public key); a SAML IdP answers at SsoSamlController's `saml/acs`.
 */
@BrowserPages('auth/sso', null)
@UseGuards(RateLimitGuard)
export class SsoSignInController {
  constructor(
    private readonly connections: SsoConnectionsRepository,
    private readonly oidc: OidcUpstreamService,
    private readonly saml: SamlUpstreamService,
    private readonly browser: BrowserSessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get(':id')
  @RateLimit('login')
  async start(
    @Param('id') id: string,
    @Query('next') next: unknown,
    @Req() req: Request,
    @Res() res: Response,
    @ReqMeta() meta: RequestMeta,
  ) {
    const connection = await this.connection(id, res, meta);
    if (!connection) return;
    const target = safeNext(next);
    if (connection.protocol === 'saml') return this.startSaml(connection, target, req, res, meta);
    const started = await this.oidc.start(connection, target, cookies(req)[SSO_FLOW_COOKIE], meta);
    if (started.kind !== 'redirect') return sendUpstreamResult(res, started, this.config.COOKIE_SECURE, meta.requestId);
    res.cookie(SSO_FLOW_COOKIE, started.flowCookie, {
      httpOnly: true,
      // Lax: the provider's answer is a top-level GET navigation back to us.
      sameSite: 'lax',
      secure: this.config.COOKIE_SECURE,
      path: FLOW_COOKIE_PATH,
      maxAge: OIDC_FLOW_TTL_MS,
    });
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, started.location);
  }

  @Get(':id/callback')
  @RateLimit('login')
  async callback(@Param('id') id: string, @Req() req: Request, @Res() res: Response, @ReqMeta() meta: RequestMeta) {
    const connection = await this.connection(id, res, meta);
    if (!connection) return;
    if (connection.protocol !== 'oidc') return this.notFound(res, meta);
    const current = new URL(req.originalUrl, `${this.config.PUBLIC_BASE_URL}/`);
    const previous = await this.browser.sessionFor(sessionCookie(req));
    const result = await this.oidc.callback(connection, current, cookies(req)[SSO_FLOW_COOKIE], meta, previous);
    sendUpstreamResult(res, result, this.config.COOKIE_SECURE, meta.requestId);
  }

  @Get(':id/jwks')
  async jwks(@Param('id') id: string, @Res() res: Response, @ReqMeta() meta: RequestMeta) {
    const connection = await this.connection(id, res, meta);
    if (!connection) return;
    const keys = connection.protocol === 'oidc' ? this.oidc.publicKeys(connection) : null;
    if (!keys) return this.notFound(res, meta);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/jwk-set+json').send(JSON.stringify(keys));
  }

  private async startSaml(connection: SsoConnection, next: string, req: Request, res: Response, meta: RequestMeta) {
    const started = await this.saml.start(connection, next, cookies(req)[SAML_PENDING_COOKIE], meta);
    if (started.kind !== 'redirect') return sendUpstreamResult(res, started, this.config.COOKIE_SECURE, meta.requestId);
    setSamlPendingCookie(res, started.pendingCookie);
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, started.location);
  }

  private async connection(id: string, res: Response, meta: RequestMeta): Promise<SsoConnection | null> {
    const connection = isUuid(id) ? await this.connections.byId(id) : null;
    if (!connection) this.notFound(res, meta);
    return connection;
  }

  private notFound(res: Response, meta: RequestMeta): void {
    res
      .status(404)
      .type('html')
      .send(renderErrorPage(404, 'Unknown sign-in link', 'This sign-in link does not name a connection of this service.', meta.requestId));
  }
}

function cookies(req: Request): Record<string, unknown> {
  return (req.cookies ?? {}) as Record<string, unknown>;
}
