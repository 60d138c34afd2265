import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Auth } from '../common/auth/auth.decorator';
import { DomainError } from '../common/errors';
import { APP_CONFIG, AppConfig } from '../config/config';
import { IdpRuntime } from '../saml/idp/idp-runtime';
import { renderLandingPage } from './landing.view';

/** docs/quickstart.md beside dist/ or src/ (absent from the production image). */
const QUICKSTART = join(__dirname, '..', '..', 'docs', 'quickstart.md');

/** `/` in a browser: a page saying what this is, not a JSON 404. Not part of the API description. */
@ApiExcludeController()
@Controller()
@Auth('public')
export class LandingController {
  private readonly page: string;
  private readonly quickstart?: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig, idp: IdpRuntime) {
    this.quickstart = existsSync(QUICKSTART) ? readFileSync(QUICKSTART, 'utf8') : undefined;
    this.page = renderLandingPage({
      baseUrl: config.PUBLIC_BASE_URL,
      development: config.NODE_ENV !== 'production',
      samlOn: idp.state.configured,
      quickstart: this.quickstart !== undefined,
    });
  }

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  landing(): string {
    return this.page;
  }

  @Get('quickstart.md')
  @Header('Content-Type', 'text/markdown; charset=utf-8')
  quickstartDoc(): string {
    if (this.quickstart === undefined) throw new DomainError('not_found', 'The quickstart is not shipped with this build');
    return this.quickstart;
  }
}
