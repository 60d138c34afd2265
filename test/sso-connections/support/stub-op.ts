import { createPublicKey, generateKeyPairSync, KeyObject, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, type JWTPayload } from 'jose';

/** What the stub's token endpoint answers for one code: the ID token, built once the code is redeemed. */
export type IdTokenFactory = (defaults: { iss: string; aud: string; nonce: string; sub: string }) => Promise<string> | string;

/**
 * A minimal OpenID provider in the test process for what a real one would never send: forged ID
 * tokens. It serves discovery, a JWKS with one RS256 key, and a token endpoint that answers each
 * code with the ID token the test registered for it. The authorization step is the test's: it reads
 * state and nonce from our redirect and calls our callback itself (plain HTTP, no browser).
 */
export class StubOp {
  private server!: Server;
  readonly privateKey: KeyObject;
  readonly kid = `stub-${randomBytes(4).toString('hex')}`;
  issuer = '';
  jwksFetches = 0;
  tokenRequests = 0;
  private readonly answers = new Map<string, { nonce: string; sub: string; token: IdTokenFactory }>();

  private constructor() {
    this.privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  }

  static async start(): Promise<StubOp> {
    const op = new StubOp();
    op.server = createServer((req, res) => {
      op.handle(req)
        .then(({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)))
        .catch((err: Error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: err.message })));
    });
    await new Promise<void>((resolve) => op.server.listen(0, '127.0.0.1', resolve));
    op.issuer = `http://127.0.0.1:${(op.server.address() as AddressInfo).port}`;
    return op;
  }

  get publicKeyPem(): string {
    return createPublicKey(this.privateKey).export({ format: 'pem', type: 'spki' }).toString();
  }

  /** A code the token endpoint will redeem with `token` (built with the flow's nonce and the subject). */
  issueCode(flow: { nonce: string; sub: string }, token: IdTokenFactory = (d) => this.sign(d)): string {
    const code = randomBytes(16).toString('base64url');
    this.answers.set(code, { ...flow, token });
    return code;
  }

  /** An RS256 ID token signed with the published key unless `key`/`kid` say otherwise; claims override the defaults. */
  async sign(claims: JWTPayload, options: { key?: KeyObject; kid?: string; expiresIn?: number } = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iat: now, exp: now + (options.expiresIn ?? 300), ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? this.kid, typ: 'JWT' })
      .sign(options.key ?? this.privateKey);
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const url = new URL(req.url ?? '/', this.issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      return {
        status: 200,
        body: {
          issuer: this.issuer,
          authorization_endpoint: `${this.issuer}/authorize`,
          token_endpoint: `${this.issuer}/token`,
          jwks_uri: `${this.issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
          authorization_response_iss_parameter_supported: true,
        },
      };
    }
    if (url.pathname === '/jwks') {
      this.jwksFetches++;
      const jwk = createPublicKey(this.privateKey).export({ format: 'jwk' });
      return { status: 200, body: { keys: [{ ...jwk, kid: this.kid, alg: 'RS256', use: 'sig' }] } };
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      this.tokenRequests++;
      const form = new URLSearchParams(await readBody(req));
      const answer = this.answers.get(form.get('code') ?? '');
      if (!answer || !form.get('code_verifier')) return { status: 400, body: { error: 'invalid_grant' } };
      this.answers.delete(form.get('code')!);
      const aud = clientIdOf(req, form);
      const idToken = await answer.token({ iss: this.issuer, aud, nonce: answer.nonce, sub: answer.sub });
      return {
        status: 200,
        body: { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: idToken },
      };
    }
    return { status: 404, body: { error: 'not_found' } };
  }
}

function clientIdOf(req: IncomingMessage, form: URLSearchParams): string {
  const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
  if (basic) return decodeURIComponent(Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0]);
  return form.get('client_id') ?? '';
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
