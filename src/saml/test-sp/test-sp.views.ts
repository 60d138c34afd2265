import { html, SafeHtml } from '../../common/html/html';
import { pageLayout } from '../../common/html/page-layout';
import type { AssertionReport } from './inspect-response';

const BRAND = 'Test SP (development)';

/** The test SP's start page: how to register it, and a button that starts SP-initiated SSO. */
export function renderTestSpHome(opts: { baseUrl: string; workspaceId?: string; samlOn: boolean; samlStatus: string }): string {
  const registerCommand =
    `curl -X POST ${opts.baseUrl}/saml/test-sp/register \\\n` +
    `  -H "Authorization: Bearer $DEV_TOKEN" -H 'Content-Type: application/json' \\\n` +
    `  -d '{"workspace_id": "${opts.workspaceId ?? '<workspace id>'}"}'`;
  const content = html`<h1>Test service provider</h1>
    <p class="lead">
      A SAML service provider built into this development instance. It sends an AuthnRequest to the IdP, receives the signed Response and
      shows the assertion with its signature check.
    </p>
    ${opts.samlOn ? '' : html`<div class="alert error" role="alert">SAML is off: ${opts.samlStatus}</div>`}
    <h2>1. Register it in a workspace</h2>
    <p>With a developer token (<code>dat_…</code>), once per workspace:</p>
    <pre tabindex="0" aria-label="Command that registers the test SP">${registerCommand}</pre>
    <h2>2. Sign in through it</h2>
    <form method="get" action="/saml/test-sp/start">
      <div class="field">
        <label for="workspace_id">Workspace id</label>
        <input type="text" id="workspace_id" name="workspace_id" required value="${opts.workspaceId ?? ''}" />
        <p class="hint">You sign in on the hosted login as an end user of this workspace.</p>
      </div>
      <button type="submit">Sign in with SAML</button>
    </form>`;
  return pageLayout({ title: 'Test service provider', brand: BRAND, wide: true }, content);
}

/** What the IdP sent: the checks, the NameID and attributes, and the Response XML. */
export function renderTestSpResult(report: AssertionReport, workspaceId: string | undefined, idpCertPem: string): string {
  const checks = report.checks.map(
    (c) =>
      html`<tr>
        <td>${c.ok ? '✔' : '✘'}</td>
        <td>${c.name}</td>
        <td>${c.detail}</td>
      </tr>`,
  );
  const attributes = report.attributes.map(
    (a) =>
      html`<tr>
        <td><code>${a.name}</code></td>
        <td>${a.values.join(', ')}</td>
      </tr>`,
  );
  const again: SafeHtml | string = workspaceId
    ? html`<p><a href="/saml/test-sp/?workspace_id=${workspaceId}">Start another sign-in</a></p>`
    : html`<p><a href="/saml/test-sp/">Back to the test SP</a></p>`;
  const content = html`<h1>${report.valid ? 'Signed in: the assertion is valid' : 'The response was rejected'}</h1>
    <div class="alert ${report.valid ? 'ok' : 'error'}" role="status" id="verdict">
      ${report.valid ? 'Every check passed, including the XML signature.' : 'At least one check failed (marked ✘ below).'}
    </div>
    <h2>Subject</h2>
    <table>
      <tr>
        <th>NameID</th>
        <td id="name-id">${report.nameId ?? '(none)'}</td>
      </tr>
      <tr>
        <th>Format</th>
        <td>${report.nameIdFormat ?? '(none)'}</td>
      </tr>
    </table>
    <h2>Attributes</h2>
    <table id="attributes">
      ${
        attributes.length
          ? attributes
          : html`<tr>
              <td>(none)</td>
            </tr>`
      }
    </table>
    <h2>Checks</h2>
    <table id="checks">
      ${checks}
    </table>
    <h2>Response XML</h2>
    <p>
      Shown re-indented for reading; a signature check needs the bytes as they were signed:
      <a id="download-response" download="saml-response.xml" href="data:application/xml;base64,${report.receivedBase64}"
        >download the Response exactly as received (saml-response.xml)</a
      >
      and
      <a
        id="download-idp-cert"
        download="idp-cert.pem"
        href="data:application/x-pem-file;base64,${Buffer.from(idpCertPem).toString('base64')}"
        >the IdP certificate (idp-cert.pem)</a
      >, then check them as docs/saml.md shows (<code>xmlsec1 --verify</code>).
    </p>
    <pre id="xml" tabindex="0" aria-label="Response XML, re-indented">${report.xml}</pre>
    ${again}`;
  return pageLayout({ title: report.valid ? 'Assertion valid' : 'Response rejected', brand: BRAND, wide: true }, content);
}
