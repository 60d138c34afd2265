import { Body, Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import type { Request, Response } from 'express';
import { Auth } from '../../common/auth/auth.decorator';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { type WorkspaceScope, WorkspaceInBody } from '../../workspaces/workspace-scoped';
import { IdpRuntime } from '../idp/idp-runtime';
import { TEST_SP_PATH, TestSpService } from './test-sp.service';
import { renderTestSpHome, renderTestSpResult } from './test-sp.views';

export class RegisterTestSpDto {
  @IsUUID() workspace_id: string;
}

/** Remembers which AuthnRequest this browser sent, for the InResponseTo check. */
const REQUEST_COOKIE = 'test_sp_request';

/**
 * The development test SP (src/saml/test-sp/test-sp.service.ts). Not part of the API
 * description: it exists only outside production.
 */
@ApiExcludeController()
@Controller('saml/test-sp')
export class TestSpController {
  constructor(
    private readonly testSp: TestSpService,
    private readonly idp: IdpRuntime,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Auth('public')
  home(@Query('workspace_id') workspaceId: unknown, @Res() res: Response): void {
    this.testSp.assertEnabled();
    const page = renderTestSpHome({
      baseUrl: this.config.PUBLIC_BASE_URL,
      workspaceId: typeof workspaceId === 'string' ? workspaceId.slice(0, 64) : undefined,
      samlOn: this.idp.state.configured,
      samlStatus: this.idp.summary,
    });
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(page);
  }

  /** Registers the test SP in a workspace the developer belongs to; idempotent. */
  @Post('register')
  @Auth('developer')
  async register(
    @WorkspaceInBody() scope: WorkspaceScope,
    @Body() _dto: RegisterTestSpDto,
    @ReqMeta() meta: RequestMeta,
    @Res({ passthrough: true }) res: Response,
  ) {
    const result = await this.testSp.register(scope, meta);
    res.status(result.created ? 201 : 200);
    return result;
  }

  @Get('start')
  @Auth('public')
  start(@Query('workspace_id') workspaceId: unknown, @Res() res: Response): void {
    const { location, requestId } = this.testSp.start(workspaceId);
    res.cookie(REQUEST_COOKIE, requestId, { httpOnly: true, sameSite: 'lax', secure: this.config.COOKIE_SECURE, path: `${TEST_SP_PATH}/` });
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, location);
  }

  @Post('acs')
  @Auth('public')
  acs(@Req() req: Request, @Res() res: Response): void {
    const body = (req.body ?? {}) as { SAMLResponse?: unknown; RelayState?: unknown };
    const sent: unknown = (req.cookies as Record<string, unknown> | undefined)?.[REQUEST_COOKIE];
    const { report, workspaceId } = this.testSp.inspect(body.SAMLResponse, body.RelayState, typeof sent === 'string' ? sent : undefined);
    res.clearCookie(REQUEST_COOKIE, { path: `${TEST_SP_PATH}/` });
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(report.valid ? 200 : 400)
      .type('html')
      .send(renderTestSpResult(report, workspaceId, this.idp.settings().certPem));
  }
}
