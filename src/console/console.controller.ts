import { Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { renderErrorPage } from '../common/html/error-page';
import { CONSOLE_CSP, loadConsoleFiles, resolveConsolePath } from './console-files';
import { PublicApi } from '../common/controller-kinds';

/**
 * The developer console (console/, a single-page app built by Vite) at /console/. Its files are
 * public; everything it shows comes from the developer API with the session cookie. Deep links
 * (/console/w/…/audit) answer index.html so a reload lands on the same page.
 */
@PublicApi('', null)
export class ConsoleController {
  private readonly files = loadConsoleFiles();

  @Get(['console', 'console/*path'])
  serve(@Req() req: Request, @Res() res: Response): void {
    if (req.path === '/console') {
      res.redirect(301, '/console/');
      return;
    }
    if (!this.files) {
      return errorPage(res, 503, 'Console not built', 'The developer console has not been built on this server: run npm run build.');
    }
    const file = resolveConsolePath(this.files, req.path.slice('/console/'.length));
    if (!file) return errorPage(res, 404, 'Not found', 'No such file in the developer console.');
    // The error pages above keep the service's default policy (their styles are inline); the console's own files get its strict one.
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('Content-Type', file.type);
    res.setHeader('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    res.setHeader('Vary', 'Accept-Encoding');
    const gzip = file.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.status(200).end(gzip ? file.gzip : file.body);
  }
}

/** The shared HTML error page, never cached (a build or a deploy may fix it). */
function errorPage(res: Response, status: number, title: string, message: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res
    .status(status)
    .type('html')
    .send(renderErrorPage(status, title, message));
}
