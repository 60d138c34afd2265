import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { escapeHtml } from '../../src/common/html/escape';
import type { RegisteredSp } from '../saml/support/saml-sso.helpers';

/** A posted HTML form's fields. */
export function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(new URLSearchParams(data)));
    req.on('error', reject);
  });
}

export interface SpServer {
  server: Server;
  base: string;
}

/**
 * A node-saml service provider on "localhost" (another site than the IdP on 127.0.0.1): /start redirects
 * to the IdP with its AuthnRequest (carrying `relayState`), /acs validates the posted Response with
 * node-saml and shows the profile's `attributes` (each in an element with its name as id) and the
 * RelayState (#relay); a Response it refuses shows "Rejected" with node-saml's reason, status 403.
 */
export function startSpServer(
  getSp: () => Pick<RegisteredSp, 'saml'>,
  idpBaseUrl: string,
  { relayState = '', attributes = ['email', 'uid'] }: { relayState?: string; attributes?: string[] } = {},
): Promise<SpServer> {
  const server = createServer((req, res) => {
    void (async () => {
      const sp = getSp();
      if (req.method === 'GET' && req.url === '/start') {
        const url = new URL(await sp.saml.getAuthorizeUrlAsync(relayState, undefined, {}));
        res.writeHead(302, { Location: `${idpBaseUrl}${url.pathname}${url.search}` }).end();
        return;
      }
      if (req.method === 'POST' && req.url === '/acs') {
        const form = await readForm(req);
        try {
          const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: form.get('SAMLResponse') ?? '' });
          const rows = attributes.map((k) => `<dt>${k}</dt><dd id="${k}">${escapeHtml(profile?.[k])}</dd>`).join('');
          res
            .writeHead(200, { 'Content-Type': 'text/html' })
            .end(`<h1>Welcome to the SP</h1><dl>${rows}</dl><p id="relay">${escapeHtml(form.get('RelayState'))}</p>`);
        } catch (err) {
          res.writeHead(403, { 'Content-Type': 'text/html' }).end(`<h1>Rejected</h1><p>${escapeHtml((err as Error).message)}</p>`);
        }
        return;
      }
      res.writeHead(404).end();
    })();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://localhost:${(server.address() as AddressInfo).port}` })),
  );
}
