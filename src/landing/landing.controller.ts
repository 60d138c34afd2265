import { Get, Header, HttpCode, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '../common/errors';
import { APP_CONFIG, AppConfig } from '../config/config';
import { IdpRuntime } from '../saml/idp/idp-runtime';
import { Guide } from './guide';
import { renderLandingPage } from './landing.view';
import { COMMON_ERRORS } from '../common/common.errors';
import { PublicApi } from '../common/controller-kinds';

/** docs/ beside dist/ or src/ (absent from the production image). */
const DOCS = join(__dirname, '..', '..', 'docs');
const NAME = /^[a-z0-9][a-z0-9.-]*$/i;

/**
 * `/` in a browser: a page saying what this is, not a JSON 404; the docs it links to as HTML
 * (`/guide/…`, decision 0051); and a quiet answer to the browser's favicon request. Not part of the
 * API description.
 */
@PublicApi('', null)
export class LandingController {
  private readonly page: string;
  private readonly guide: Guide;
  private readonly quickstart?: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig, idp: IdpRuntime) {
    this.guide = new Guide(DOCS);
    const quickstartFile = join(DOCS, 'quickstart.md');
    this.quickstart = existsSync(quickstartFile) ? readFileSync(quickstartFile, 'utf8') : undefined;
    this.page = renderLandingPage({
      baseUrl: config.PUBLIC_BASE_URL,
      development: config.NODE_ENV !== 'production',
      samlOn: idp.state.configured,
      quickstart: this.guide.has('quickstart'),
    });
  }

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  landing(): string {
    return this.page;
  }

  /** The quickstart's source, for `curl` (a browser gets the page at /guide/quickstart from the landing page). */
  @Get('quickstart.md')
  @Header('Content-Type', 'text/markdown; charset=utf-8')
  quickstartDoc(): string {
    if (this.quickstart === undefined) throw notShipped();
    return this.quickstart;
  }

  /** Browsers ask every page for it; there is no icon, so a cacheable 204 instead of a logged 404. */
  @Get('favicon.ico')
  @HttpCode(204)
  @Header('Cache-Control', 'public, max-age=86400')
  favicon(): void {}

  @Get('guide/:page')
  @Header('Content-Type', 'text/html; charset=utf-8')
  guidePage(@Param('page') page: string): string {
    return this.guidePageNamed(page);
  }

  @Get('guide/decisions/:page')
  @Header('Content-Type', 'text/html; charset=utf-8')
  decisionPage(@Param('page') page: string): string {
    return this.guidePageNamed(`decisions/${page}`);
  }

  @Get('guide/images/:file')
  guideImage(@Param('file') file: string, @Res() res: Response): void {
    const path = NAME.test(file) ? this.guide.imageFile(`images/${file}`) : undefined;
    if (!path) throw notShipped();
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.sendFile(path);
  }

  private guidePageNamed(name: string): string {
    const page = name.split('/').every((part) => NAME.test(part)) ? this.guide.page(name) : undefined;
    if (page === undefined) throw notShipped();
    return page;
  }
}

function notShipped(): DomainError {
  return new DomainError(COMMON_ERRORS.not_found, 'This page is not shipped with this build');
}
