// A peer for bench/oidc-peers.ts: panva's oidc-provider (certified, ESM only, hence a child process of the
// CJS harness) on PostgreSQL, on a loopback port. Its storage is the adapter of oidc-provider's documented
// interface over one jsonb table (the shape of the project's example adapters): a pool of 10 connections, as
// the service's. Configured like the service where the protocol leaves a choice: one confidential client
// (client_secret_basic), PKCE S256, RS256 ID tokens, refresh tokens rotated on every use (the service's
// decision 0301; the provider's own default rotates a confidential client's only late in their life) with
// reuse revoking the grant, introspection on; seeded codes live an hour instead of 60 s (they wait for their window). Its access tokens are its default (opaque, stored).
//   PORT, DATABASE_URL, ISSUER
// Control (not measured): POST /__seed/refresh?n=N and /__seed/codes?n=N&challenge=C answer JSON arrays of
// fresh refresh tokens and authorization codes, each with a grant of its own; POST /__seed/access?n=N access
// tokens (for UserInfo and introspection); GET /__ready.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import { URL } from 'node:url';
import pg from 'pg';
import Provider from 'oidc-provider';

const PORT = Number(process.env.PORT);
const ISSUER = process.env.ISSUER ?? `http://127.0.0.1:${PORT}`;
const CLIENT = { client_id: 'bench-client', client_secret: 'bench-client-secret-bench-client-secret' };
const REDIRECT_URI = 'https://app.bench.example/callback';
const ACCOUNT = { sub: 'bench-account', email: 'person@bench.example', email_verified: true, given_name: 'Ada', family_name: 'Bench' };
const SCOPE = 'openid email profile offline_access';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
await pool.query(`CREATE TABLE IF NOT EXISTS oidc_payloads (
  model text NOT NULL, id text NOT NULL, payload jsonb NOT NULL, grant_id text, user_code text, uid text,
  expires_at timestamptz, consumed_at timestamptz, PRIMARY KEY (model, id))`);
await pool.query('CREATE INDEX IF NOT EXISTS oidc_payloads_grant_id ON oidc_payloads (grant_id)');
await pool.query('CREATE INDEX IF NOT EXISTS oidc_payloads_uid ON oidc_payloads (uid)');

const readPayload = (row) => (row ? { ...row.payload, ...(row.consumed_at ? { consumed: true } : {}) } : undefined);

class PostgresAdapter {
  constructor(model) {
    this.model = model;
  }
  async upsert(id, payload, expiresIn) {
    await pool.query(
      `INSERT INTO oidc_payloads (model, id, payload, grant_id, user_code, uid, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
       ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
      [this.model, id, payload, payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresIn ?? null],
    );
  }
  async find(id) {
    const { rows } = await pool.query(
      `SELECT payload, consumed_at FROM oidc_payloads WHERE model = $1 AND id = $2 AND (expires_at IS NULL OR expires_at > now())`,
      [this.model, id],
    );
    return readPayload(rows[0]);
  }
  async findByUid(uid) {
    const { rows } = await pool.query(
      `SELECT payload, consumed_at FROM oidc_payloads WHERE model = $1 AND uid = $2 AND (expires_at IS NULL OR expires_at > now())`,
      [this.model, uid],
    );
    return readPayload(rows[0]);
  }
  async findByUserCode(userCode) {
    const { rows } = await pool.query(
      `SELECT payload, consumed_at FROM oidc_payloads WHERE model = $1 AND user_code = $2 AND (expires_at IS NULL OR expires_at > now())`,
      [this.model, userCode],
    );
    return readPayload(rows[0]);
  }
  async consume(id) {
    await pool.query(`UPDATE oidc_payloads SET consumed_at = now() WHERE model = $1 AND id = $2`, [this.model, id]);
  }
  async destroy(id) {
    await pool.query(`DELETE FROM oidc_payloads WHERE model = $1 AND id = $2`, [this.model, id]);
  }
  async revokeByGrantId(grantId) {
    await pool.query(`DELETE FROM oidc_payloads WHERE grant_id = $1`, [grantId]);
  }
}

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const provider = new Provider(ISSUER, {
  adapter: PostgresAdapter,
  clients: [{ ...CLIENT, redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }],
  jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'bench', alg: 'RS256', use: 'sig' }] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
  features: { devInteractions: { enabled: false }, introspection: { enabled: true }, revocation: { enabled: true } },
  rotateRefreshToken: true,
  // Seeded codes wait for their window longer than a code lives (60 s); the lifetime changes no cost.
  ttl: { AuthorizationCode: 3600 },
  findAccount: (_ctx, id) => (id === ACCOUNT.sub ? { accountId: id, claims: () => ({ ...ACCOUNT }) } : undefined),
});
provider.on('server_error', (_ctx, err) => console.error('server_error', err));

/** A grant of its own for each seeded token, as a sign-in would have made. */
async function aGrant() {
  const grant = new provider.Grant({ clientId: CLIENT.client_id, accountId: ACCOUNT.sub });
  grant.addOIDCScope(SCOPE);
  return grant.save();
}

async function seed(n, make) {
  const client = await provider.Client.find(CLIENT.client_id);
  const out = [];
  for (let i = 0; i < n; i += 50) {
    const batch = Array.from({ length: Math.min(50, n - i) }, async () => make(client, await aGrant()));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

const authTime = () => Math.floor(Date.now() / 1000);
const makers = {
  refresh: (client, grantId) =>
    new provider.RefreshToken({
      client,
      accountId: ACCOUNT.sub,
      grantId,
      scope: SCOPE,
      gty: 'authorization_code',
      authTime: authTime(),
      amr: ['pwd'],
    }).save(),
  codes: (client, grantId, challenge) =>
    new provider.AuthorizationCode({
      client,
      accountId: ACCOUNT.sub,
      grantId,
      scope: SCOPE,
      redirectUri: REDIRECT_URI,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      authTime: authTime(),
      amr: ['pwd'],
      nonce: 'n',
    }).save(),
  access: (client, grantId) =>
    new provider.AccessToken({
      client,
      accountId: ACCOUNT.sub,
      grantId,
      scope: SCOPE,
      gty: 'authorization_code',
      expiresWithSession: false,
    }).save(),
};

const callback = provider.callback();
createServer(async (req, res) => {
  const url = new URL(req.url, ISSUER);
  if (url.pathname === '/__ready') return res.end('ok');
  if (url.pathname.startsWith('/__seed/') && req.method === 'POST') {
    try {
      const kind = url.pathname.slice('/__seed/'.length);
      const make = makers[kind];
      if (!make) return res.writeHead(404).end();
      const challenge = url.searchParams.get('challenge');
      const tokens = await seed(Number(url.searchParams.get('n') ?? 1), (client, grantId) => make(client, grantId, challenge));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(tokens));
    } catch (err) {
      console.error(err);
      res.writeHead(500).end(String(err));
    }
    return;
  }
  callback(req, res);
}).listen(PORT, '127.0.0.1', () => console.log(`oidc-provider on ${ISSUER}`));
