import { Get, Res } from '@nestjs/common';
import type { Response } from 'express';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PASSKEY_SCRIPT } from './passkey-script';
import { PublicApi } from '../common/controller-kinds';

/**
 * The browser half of WebAuthn, served by the service itself: @simplewebauthn/browser's UMD bundle
 * read from the installed package (a production dependency, so it is in the runtime image), and
 * the pages' glue script. Nothing is loaded from a CDN.
 */
function browserBundle(): string {
  // The package's exports map hides dist/; its main entry sits in script/, beside dist/.
  const main = require.resolve('@simplewebauthn/browser');
  return readFileSync(join(dirname(main), '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
}

export const HOSTED_ASSETS = '/auth/assets/';

@PublicApi('auth/assets', null)
export class HostedAssetsController {
  private readonly bundle = browserBundle();

  @Get('simplewebauthn-browser.js')
  webauthn(@Res() res: Response): void {
    this.script(res, this.bundle);
  }

  @Get('passkey.js')
  passkey(@Res() res: Response): void {
    this.script(res, PASSKEY_SCRIPT);
  }

  private script(res: Response, body: string): void {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('application/javascript').send(body);
  }
}
