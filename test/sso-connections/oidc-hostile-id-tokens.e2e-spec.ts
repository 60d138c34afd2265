import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import request from 'supertest';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { anOidcTenant, attempts, auditRows, OidcTenant, provision } from './support/oidc-tenant';
import { IdTokenFactory, StubOp } from './support/stub-op';

type Defaults = Parameters<IdTokenFactory>[0];

/**
 * Forged ID tokens from the upstream's token endpoint (a stub OP in the test process, since a real
 * one would never send them). Each names a person the directory provisioned, with a verified email,
 * so only the relying party's checks stand between it and a session: each must be refused with its
 * typed reason, a 4xx page, a login_failure audit row and an attempt, and no session.
 */
describe('SSO connections: hostile ID tokens from an OIDC upstream', () => {
  let t: TestApp;
  let op: StubOp;
  let tenant: OidcTenant;
  const email = `ada.${randomBytes(4).toString('hex')}@acme.example`;
  const sub = `00u${randomBytes(6).toString('hex')}`;
  const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

  beforeAll(async () => {
    [t, op] = await Promise.all([createTestApp({ OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true' }), StubOp.start()]);
    tenant = await anOidcTenant(t, op.issuer);
    await provision(tenant, email);
  });
  afterAll(async () => {
    await op?.stop();
    await t?.close();
  });

  const claims = (d: Defaults, extra: JWTPayload = {}): JWTPayload => ({ ...d, email, email_verified: true, ...extra });
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const hs256 = (payload: JWTPayload, secret: Uint8Array) =>
    new SignJWT({ iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 300, ...payload })
      .setProtectedHeader({ alg: 'HS256', kid: op.kid, typ: 'JWT' })
      .sign(secret);

  /** One sign-in in a fresh cookie jar: start, then our callback with a code the stub redeems with `token`. */
  async function signInWith(token: IdTokenFactory) {
    const agent = request.agent(t.app.getHttpServer());
    const started = await agent.get(`/auth/sso/${tenant.connectionId}/`).query({ next: '/' }).expect(303);
    const sent = new URL(started.headers.location as string).searchParams;
    const code = op.issueCode({ nonce: sent.get('nonce')!, sub }, token);
    return agent.get(`/auth/sso/${tenant.connectionId}/callback`).query({ code, state: sent.get('state'), iss: op.issuer });
  }

  it('signs the person in with a genuine token (the stub and the tenant work; what follows fails only by its forgery)', async () => {
    const res = await signInWith((d) => op.sign(claims(d)));
    expect(res.status).toBe(303);
    expect(String(res.headers['set-cookie'])).toMatch(/esid=/);
    expect((await attempts(t, tenant))[0]).toMatchObject({ outcome: 'success', subject: sub });
  });

  const forgeries: [string, IdTokenFactory, string][] = [
    [
      'alg none (unsigned)',
      (d) => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims(d, { iat: Math.floor(Date.now() / 1000) }))}.`,
      'signature_invalid',
    ],
    [
      "HS256 keyed with the upstream's public key (algorithm confusion)",
      (d) => hs256(claims(d), Buffer.from(op.publicKeyPem)),
      'signature_invalid',
    ],
    ['HS256 keyed with our client secret', (d) => hs256(claims(d), new TextEncoder().encode(tenant.clientSecret)), 'signature_invalid'],
    ["RS256 by a foreign key under the upstream's kid", (d) => op.sign(claims(d), { key: foreignKey }), 'signature_invalid'],
    [
      'RS256 by a foreign key under an unknown kid',
      (d) => op.sign(claims(d), { key: foreignKey, kid: 'attacker-key' }),
      'signature_invalid',
    ],
    ['another audience', (d) => op.sign(claims(d, { aud: 'some-other-client' })), 'audience_mismatch'],
    ['another issuer', (d) => op.sign(claims(d, { iss: 'https://evil.example' })), 'issuer_mismatch'],
    [
      'an expired token',
      (d) => op.sign(claims(d, { iat: Math.floor(Date.now() / 1000) - 7200 }), { expiresIn: -3600 }),
      'response_expired',
    ],
    ["another sign-in's nonce", (d) => op.sign(claims(d, { nonce: 'nonce-of-another-sign-in' })), 'nonce_mismatch'],
  ];

  const cases = forgeries.map(([what, token, reason]) => ({ what, reason, token }));
  it.each(cases)('refuses $what as $reason, with a 4xx page, the audit row and the attempt, and no session', async ({ reason, token }) => {
    const failuresBefore = (await auditRows(t, tenant, 'login_failure')).length;
    const successesBefore = (await auditRows(t, tenant, 'login_success')).length;
    const res = await signInWith(token);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('Sign-in refused');
    expect(String(res.headers['set-cookie'] ?? '')).not.toMatch(/esid=/);
    expect((await attempts(t, tenant))[0]).toMatchObject({ outcome: 'failure', reason });
    const failures = await auditRows(t, tenant, 'login_failure');
    expect(failures).toHaveLength(failuresBefore + 1);
    expect(failures[0].metadata).toMatchObject({ reason, provider_id: tenant.connectionId });
    expect(await auditRows(t, tenant, 'login_success')).toHaveLength(successesBefore);
  });

  it('binds a new subject while another sign-in binds the same person under another subject: the later binding wins, never a 500', async () => {
    const mover = `mover.${randomBytes(4).toString('hex')}@acme.example`;
    const newSub = `00u${randomBytes(6).toString('hex')}`;
    await provision(tenant, mover);
    const [person] = await t.dataSource.query<{ id: string }[]>(`SELECT id FROM end_users WHERE workspace_id = $1 AND email = $2`, [
      tenant.ws.id,
      mover,
    ]);
    const agent = request.agent(t.app.getHttpServer());
    const started = await agent.get(`/auth/sso/${tenant.connectionId}/`).query({ next: '/' }).expect(303);
    const sent = new URL(started.headers.location as string).searchParams;
    const code = op.issueCode({ nonce: sent.get('nonce')!, sub: newSub }, (d) => op.sign({ ...d, email: mover, email_verified: true }));
    // Another sign-in of the same person, under an older subject, has bound them and not committed yet.
    const other = t.dataSource.createQueryRunner();
    await other.connect();
    try {
      await other.startTransaction();
      await other.query(
        `INSERT INTO sso_bindings (workspace_id, connection_id, issuer, subject, user_id) VALUES ($1, $2, $3, 'older-subject', $4)`,
        [tenant.ws.id, tenant.connectionId, op.issuer, person.id],
      );
      const answer = agent
        .get(`/auth/sso/${tenant.connectionId}/callback`)
        .query({ code, state: sent.get('state'), iss: op.issuer })
        .then((res) => res);
      // The callback's binding waits for that transaction (the person's one binding per connection).
      await eventually(async () => {
        const [waiting] = await t.dataSource.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        expect(waiting.n).toBeGreaterThan(0);
      });
      await other.commitTransaction();
      const res = await answer;
      expect(res.status).toBe(303);
    } finally {
      await other.release();
    }
    const bindings = await t.dataSource.query<{ subject: string }[]>(
      `SELECT subject FROM sso_bindings WHERE connection_id = $1 AND user_id = $2`,
      [tenant.connectionId, person.id],
    );
    expect(bindings).toEqual([{ subject: newSub }]);
  });

  it('fetches the JWKS again at most once per sign-in for an unknown kid (only the upstream can cause it)', async () => {
    const before = op.jwksFetches;
    for (let i = 0; i < 3; i++) {
      const res = await signInWith((d) => op.sign(claims(d), { key: foreignKey, kid: `unknown-${i}` }));
      expect(res.status).toBe(400);
    }
    expect(op.jwksFetches - before).toBeLessThanOrEqual(3);
  });
});
