import { html, raw, type SafeHtml } from '../common/html/html';
import { PRODUCT_NAME } from '../common/html/page-layout';
import { PAGE_STYLES } from '../common/html/page-styles';

export interface LandingFacts {
  baseUrl: string;
  development: boolean;
  samlOn: boolean;
  quickstart: boolean;
}

const WIDE =
  'main{max-width:640px}ul.links{padding-left:20px;margin:0 0 20px}ul.links li{margin:6px 0}' +
  'code{font-family:"SFMono-Regular",Consolas,monospace;font-size:13px}h2{font-size:16px;margin:20px 0 8px}';

/** The page at `/`: what this service is and where to go next (no JavaScript, no assets). */
export function renderLandingPage(facts: LandingFacts): string {
  return publicPage(
    'Identity service',
    WIDE,
    html`<div class="card">
      <div class="brand" aria-hidden="true">
        <div class="mark">${PRODUCT_NAME.charAt(0)}</div>
        <div class="brand-name">${PRODUCT_NAME}</div>
      </div>
      <h1>Identity service</h1>
      <p class="lead">
        SCIM 2.0 directory sync, a SAML 2.0 identity provider, end-user sign-in with email verification and a hosted login page, sign-in
        anomaly detection, an append-only audit log and managed databases — one API.
      </p>
      <h2>Start here</h2>
      <ul class="links">
        ${facts.quickstart ? html`<li><a href="/guide/quickstart">Quickstart</a>: from nothing to a provisioned user and a SAML sign-in</li>` : ''}
        <li>
          <a href="/console/">Developer console</a>: sign up, create a workspace, mint SCIM tokens, register SAML apps, read the audit log
        </li>
        <li><a href="/docs">API reference</a> (Swagger UI) · <a href="/openapi.json">/openapi.json</a></li>
        <li><a href="/health/ready">/health/ready</a>: database and migrations</li>
        <li>SAML IdP metadata: <a href="/saml/metadata/">/saml/metadata/</a>${facts.samlOn ? '' : ' (not configured: 503)'}</li>
      </ul>
      ${
        facts.development
          ? html`<h2>Development</h2>
              <ul class="links">
                <li>
                  <code>npm run seed</code> creates a demo developer, workspace, tokens, OAuth client, end user and test SP, and prints them
                </li>
                <li><a href="/saml/test-sp/">Test service provider</a>: try an SP-initiated SAML sign-in and inspect the assertion</li>
              </ul>`
          : ''
      }
      <p class="meta">${facts.baseUrl}</p>
    </div>`,
  );
}

/** The shell of the landing's public pages (`/` and the guide): indexable, no skip link, no JavaScript. */
export function publicPage(title: string, styles: string, main: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style>
          ${raw(PAGE_STYLES + styles)}
        </style>
      </head>
      <body>
        <main id="main">${main}</main>
      </body>
    </html> `.value;
}
