import { createRemoteJWKSet, decodeProtectedHeader, JWTPayload, jwtVerify } from 'jose';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/app';
import type { TestDeveloper, TestWorkspace } from '../support/factories';

export const PUSH = 'urn:ietf:rfc:8935';
export const POLL = 'urn:ietf:rfc:8936';
export const RISC = 'https://schemas.openid.net/secevent/risc/event-type/';
export const CAEP = 'https://schemas.openid.net/secevent/caep/event-type/';
export const VERIFICATION = 'https://schemas.openid.net/secevent/ssf/event-type/verification';
export const ACCOUNT_DISABLED = `${RISC}account-disabled`;
export const ACCOUNT_ENABLED = `${RISC}account-enabled`;
export const IDENTIFIER_CHANGED = `${RISC}identifier-changed`;
export const SESSION_REVOKED = `${CAEP}session-revoked`;
export const ALL_EVENTS = [ACCOUNT_DISABLED, ACCOUNT_ENABLED, IDENTIFIER_CHANGED, SESSION_REVOKED];

/** A SET's claims after verification (RFC 8417, SSF 1.0 §4). */
export interface SetClaims extends JWTPayload {
  txn?: string;
  sub_id: Record<string, string>;
  events: Record<string, Record<string, unknown>>;
}

export interface Receiver {
  id: string;
  client_id: string;
  client_secret: string;
  /** Bearer header of an access token (scope ssf). */
  auth: { Authorization: string };
}

/** Registers a receiver through the developer API and gets it a token at /oauth/token, as a receiver does. */
export async function aReceiver(t: TestApp, dev: TestDeveloper, ws: TestWorkspace, extra: Record<string, unknown> = {}): Promise<Receiver> {
  const res = await t
    .http()
    .post('/developer/ssf/receivers/')
    .set(dev.auth)
    .send({ workspace_id: ws.id, name: 'receiver', ...extra });
  if (res.status !== 201) throw new Error(`receiver create failed: ${res.status} ${JSON.stringify(res.body)}`);
  const { id, client_id, client_secret } = res.body as { id: string; client_id: string; client_secret: string };
  const token = await t
    .http()
    .post('/oauth/token')
    .auth(client_id, client_secret)
    .type('form')
    .send({ grant_type: 'client_credentials', scope: 'ssf' });
  if (token.status !== 200) throw new Error(`token failed: ${token.status} ${JSON.stringify(token.body)}`);
  return { id, client_id, client_secret, auth: { Authorization: `Bearer ${token.body.access_token as string}` } };
}

/** Verifies a SET as a receiver must: signature against the transmitter's JWKS, typ, issuer and audience. */
export async function verifySet(t: Pick<TestApp, 'baseUrl'>, token: string, audience: string): Promise<SetClaims> {
  const jwks = createRemoteJWKSet(new URL(`${t.baseUrl}/oauth/jwks`));
  const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer: t.baseUrl, audience, typ: 'secevent+jwt' });
  expect(protectedHeader.alg).toBe('RS256');
  expect(decodeProtectedHeader(token).kid).toEqual(expect.any(String));
  const claims = payload as SetClaims;
  expect(claims.jti).toEqual(expect.any(String));
  expect(claims.iat).toEqual(expect.any(Number));
  expect(Object.keys(claims.events)).toHaveLength(1);
  return claims;
}

export interface Pushed {
  headers: IncomingHttpHeaders;
  token: string;
}

/**
 * A push receiver on loopback (RFC 8935): records each SET POSTed to it and answers 202, or the
 * statuses queued in `failNext` first.
 */
export class PushReceiver {
  readonly received: Pushed[] = [];
  readonly failNext: number[] = [];
  private server?: Server;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/ssf/events`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const status = this.failNext.shift();
        if (status !== undefined) {
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ err: 'busy', description: 'try later' }));
          return;
        }
        this.received.push({ headers: req.headers, token: body });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The SETs pushed so far whose audience is `receiver`, verified, with the Authorization header each came with. */
  async setsFor(t: TestApp, receiver: Receiver): Promise<{ claims: SetClaims; authorization?: string }[]> {
    const out: { claims: SetClaims; authorization?: string }[] = [];
    for (const p of this.received) {
      const aud = JSON.parse(Buffer.from(p.token.split('.')[1], 'base64url').toString()).aud;
      if (aud !== receiver.client_id) continue;
      out.push({ claims: await verifySet(t, p.token, receiver.client_id), authorization: p.headers.authorization });
    }
    return out;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * The transmitter under test for a describe block: the app (private webhook and push targets allowed,
 * the push receiver being on loopback) and a push receiver, started before its tests and stopped after.
 */
export function aTransmitter(): { readonly t: TestApp; readonly push: PushReceiver } {
  let t: TestApp | undefined;
  let push: PushReceiver | undefined;
  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    push = await new PushReceiver().start();
  });
  afterAll(async () => {
    await push?.stop();
    await t?.close();
  });
  return {
    get t() {
      return t!;
    },
    get push() {
      return push!;
    },
  };
}
