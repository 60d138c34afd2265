import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An identity provider's front door on loopback: OpenID discovery, an authorization page and a SAML SSO page, nothing more. */
export interface StubUpstream {
  issuer: string;
  close(): Promise<void>;
}

/**
 * Enough of an upstream OpenID provider or SAML IdP to see where a sign-in is sent: discovery names
 * its endpoints, and `/authorize` (OIDC) and `/saml/sso` (SAML HTTP-Redirect) answer a page. The full upstream flows
 * (tokens, ID tokens) are tested with panva's oidc-provider elsewhere.
 */
export async function startStubUpstream(): Promise<StubUpstream> {
  const server: Server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const url = new URL(req.url ?? '/', base);
    if (url.pathname === '/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          jwks_uri: `${base}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
        }),
      );
      return;
    }
    if (url.pathname === '/authorize' || url.pathname === '/saml/sso') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!doctype html><title>Acme corporate sign-in</title><h1>Acme corporate sign-in</h1>');
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
