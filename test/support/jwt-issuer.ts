import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

/**
 * An independent token issuer for the tests: an ES256 key pair whose public half a local HTTP
 * server publishes as a JWKS (the stand-in for Entra's or a client's JWKS URL), and a signer of
 * JWTs with it (client assertions, federated credentials). Counts JWKS fetches.
 */
export class JwtIssuer {
  private server?: Server;
  private privateKey!: CryptoKey;
  publicJwk!: JWK;
  readonly kid = `test-${randomUUID().slice(0, 8)}`;
  fetches = 0;
  jwksUri = '';

  static async start(): Promise<JwtIssuer> {
    const issuer = new JwtIssuer();
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    issuer.privateKey = privateKey;
    issuer.publicJwk = { ...(await exportJWK(publicKey)), kid: issuer.kid, alg: 'ES256', use: 'sig' };
    issuer.server = createServer((req, res) => {
      issuer.fetches++;
      if (req.url !== '/jwks.json') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [issuer.publicJwk] }));
    });
    await new Promise<void>((resolve) => issuer.server!.listen(0, '127.0.0.1', resolve));
    issuer.jwksUri = `http://127.0.0.1:${(issuer.server.address() as AddressInfo).port}/jwks.json`;
    return issuer;
  }

  /** A JWT signed by this issuer; `exp` is seconds from now (negative: already expired), `jti` fresh unless given. */
  async sign(
    claims: JWTPayload & { iss: string; sub: string; aud: string | string[] },
    opts: { expiresIn?: number; jti?: string | null } = {},
  ) {
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: this.kid, typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + (opts.expiresIn ?? 120));
    if (opts.jti !== null) jwt.setJti(opts.jti ?? randomUUID());
    return jwt.sign(this.privateKey);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
