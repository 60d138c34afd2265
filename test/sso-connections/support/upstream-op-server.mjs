// A company's OpenID provider for the tests: panva's oidc-provider (certified, ESM only, hence a
// child process of the CJS test run), on a loopback port, with its own login form. The parent
// (upstream-op.ts) drives it through `/__control/` routes: register a client, set an account's
// claims, rotate the signing key. Nothing here is our code under test.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { Buffer } from 'node:buffer';
import { URL, URLSearchParams } from 'node:url';
import Provider from 'oidc-provider';

/** accountId (the `sub`) -> { password, email, email_verified, given_name, family_name, amr } */
const accounts = new Map();
/** Signing keys, newest first: the provider signs with the first. */
let keys = [signingKey()];
/** Cookie keys survive a rotation so a browser's session at the OP does too. */
const cookieKeys = [randomBytes(32).toString('base64url')];
let issuer = '';
let provider;

/** model:id -> payload, shared by every provider built here so a key rotation keeps clients and sessions. */
const store = new Map();
class SharedMemoryAdapter {
  constructor(model) {
    this.model = model;
  }
  key(id) {
    return `${this.model}:${id}`;
  }
  async upsert(id, payload) {
    store.set(this.key(id), payload);
  }
  async find(id) {
    return store.get(this.key(id));
  }
  async findByUid(uid) {
    for (const [key, payload] of store) if (key.startsWith(`${this.model}:`) && payload.uid === uid) return payload;
    return undefined;
  }
  async findByUserCode() {
    return undefined;
  }
  async consume(id) {
    const payload = store.get(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id) {
    store.delete(this.key(id));
  }
  async revokeByGrantId(grantId) {
    for (const [key, payload] of store) if (payload.grantId === grantId) store.delete(key);
  }
}

function signingKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: `k-${randomBytes(6).toString('hex')}`, alg: 'RS256', use: 'sig' };
}

/** A new provider over the same in-memory store (clients, sessions and grants are kept). */
function buildProvider() {
  const built = new Provider(issuer, {
    adapter: SharedMemoryAdapter,
    jwks: { keys },
    cookies: { keys: cookieKeys },
    // Like Okta and Entra, amr and auth_time in every ID token (oidc-provider otherwise sends them only when asked).
    claims: {
      acr: null,
      sid: null,
      iss: null,
      openid: ['sub', 'amr', 'auth_time'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name'],
    },
    // Company IdPs (Okta, Entra) put the scope's claims in the ID token; the relying party reads them there.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: account.email_verified,
          given_name: account.given_name,
          family_name: account.family_name,
        }),
      };
    },
    // No consent page: the company's IdP grants its own relying party what it asks.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (existing) return existing;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope([...ctx.oidc.requestParamScopes].join(' '));
      await grant.save();
      return grant;
    },
  });
  built.on('server_error', (_ctx, err) => console.error('upstream OP server_error', err));
  return built;
}

const escape = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

function loginPage(uid, message) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme IdP sign-in</title></head><body>
<h1>Acme IdP</h1>${message ? `<p role="alert">${escape(message)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}">
<label for="username">Username</label><input id="username" name="username" autocomplete="off">
<label for="password">Password</label><input id="password" name="password" type="password">
<button type="submit">Sign in to Acme</button></form></body></html>`;
}

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

/** The login form: any account the test set, with its password; its amr is what the OP reports. */
async function interaction(req, res, uid) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) return send(res, 400, 'text/plain', 'interaction mismatch');
  if (req.method === 'GET') return send(res, 200, 'text/html', loginPage(uid));
  const form = new URLSearchParams(await readBody(req));
  const id = form.get('username') ?? '';
  const account = accounts.get(id);
  if (!account || account.password !== form.get('password')) {
    return send(res, 200, 'text/html', loginPage(uid, 'Wrong username or password'));
  }
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: id, amr: account.amr ?? ['pwd'] } },
    { mergeWithLastSubmission: false },
  );
}

/** The parent's control routes (JSON in, JSON out). */
async function control(req, res, path) {
  const body = req.method === 'POST' ? JSON.parse((await readBody(req)) || '{}') : {};
  if (path === 'clients') {
    await provider.Client.adapter.upsert(body.client_id, {
      client_id: body.client_id,
      client_secret: body.client_secret,
      redirect_uris: body.redirect_uris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: body.token_endpoint_auth_method ?? 'client_secret_basic',
    });
    return send(res, 200, 'application/json', '{}');
  }
  if (path === 'accounts') {
    accounts.set(body.sub, { ...(accounts.get(body.sub) ?? {}), ...body.claims });
    return send(res, 200, 'application/json', '{}');
  }
  if (path === 'rotate') {
    // The old key leaves the JWKS at once: only a verifier that fetches the new JWKS can check the next token.
    keys = body.keepOld ? [signingKey(), ...keys] : [signingKey()];
    provider = buildProvider();
    return send(res, 200, 'application/json', JSON.stringify({ kid: keys[0].kid }));
  }
  send(res, 404, 'application/json', '{"error":"unknown control route"}');
}

const server = createServer((req, res) => {
  const url = new URL(req.url, issuer || 'http://127.0.0.1');
  const interactionMatch = /^\/interaction\/([\w-]+)$/.exec(url.pathname);
  const controlMatch = /^\/__control\/(\w+)$/.exec(url.pathname);
  let handled;
  if (interactionMatch) handled = interaction(req, res, interactionMatch[1]);
  else if (controlMatch) handled = control(req, res, controlMatch[1]);
  else return provider.callback()(req, res);
  handled.catch((err) => {
    console.error('upstream OP test route failed', err);
    if (!res.headersSent) send(res, 500, 'text/plain', String(err?.message ?? err));
  });
});

server.listen(0, '127.0.0.1', () => {
  issuer = `http://127.0.0.1:${server.address().port}`;
  provider = buildProvider();
  process.send?.({ issuer });
});
process.on('disconnect', () => process.exit(0));
