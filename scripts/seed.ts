/**
 * npm run seed [-- --base http://localhost:3000]
 * Development only. Through the running service's public API, creates a demo developer (or signs
 * in as it), a workspace, a developer token, a SCIM token, an OAuth client, a verified end user
 * (the code is read from the mail folder when mail goes to files) and the test SAML SP, then
 * prints them. Each run makes a new workspace; the developer is reused.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

if (existsSync('.env')) process.loadEnvFile('.env');
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const BASE = (arg('base') ?? process.env.PUBLIC_BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
const MAIL_DIR = resolve(process.env.MAIL_DIR ?? join(process.env.DATA_DIR ?? './data', 'mail'));
const DEVELOPER = { email: 'demo-developer@example.com', password: 'demo-developer-password', name: 'Demo Developer' };

class SeedError extends Error {}

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown>; cookies: string[] }> {
  let res: Response;
  try {
    res = await fetch(`${BASE}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new SeedError(`cannot reach ${BASE}: start the service first (npm start), or pass --base <url>`);
  }
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    /* not JSON */
  }
  return { status: res.status, json, cookies: res.headers.getSetCookie() };
}

async function expectOk(
  what: string,
  reply: Promise<{ status: number; json: Record<string, unknown>; cookies: string[] }>,
  ok = [200, 201],
) {
  const res = await reply;
  if (!ok.includes(res.status)) throw new SeedError(`${what}: HTTP ${res.status} ${JSON.stringify(res.json)}`);
  return res;
}

async function codeFromMailFolder(email: string, since: number): Promise<string | undefined> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const files = existsSync(MAIL_DIR) ? readdirSync(MAIL_DIR).filter((f) => f.endsWith('.eml')) : [];
    for (const file of files) {
      const eml = readFileSync(join(MAIL_DIR, file), 'utf8').replace(/=\r?\n/g, '');
      if (!eml.includes(email) || !/registration_confirmation/.test(file)) continue;
      // The subject starts with the code ("123456 is your … verification code"); the body also holds the
      // address, whose random part can itself be six digits.
      const code = /^Subject: (?:=\?[^?]+\?Q\?)?(\d{6})[ _]/im.exec(eml)?.[1];
      if (code) return code;
    }
    if (Date.now() - since > 20_000) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return undefined;
}

async function main(): Promise<void> {
  if (process.env.NODE_ENV === 'production') throw new SeedError('npm run seed is for development only (NODE_ENV=production)');
  const started = Date.now();
  const signup = await call('POST', '/developer/auth/signup/', DEVELOPER);
  if (![201, 409].includes(signup.status)) throw new SeedError(`developer sign-up: HTTP ${signup.status} ${JSON.stringify(signup.json)}`);
  const login = await expectOk(
    'developer sign-in',
    call('POST', '/developer/auth/login/', { email: DEVELOPER.email, password: DEVELOPER.password }),
  );
  const cookie = login.cookies.map((c) => c.split(';')[0]).join('; ');
  const token = await expectOk(
    'developer token',
    call('POST', '/developer/tokens/', { label: 'seed' }, { Cookie: cookie, 'X-CSRF-Token': String(login.json.csrf_token) }),
  );
  const auth = { Authorization: `Bearer ${String(token.json.token)}` };
  const suffix = randomBytes(3).toString('hex');
  const ws = await expectOk('workspace', call('POST', '/e/v1/developer/workspaces/', { name: `Demo workspace ${suffix}` }, auth));
  const workspaceId = String(ws.json.id);
  const scim = await expectOk('SCIM token', call('POST', '/developer/scim/tokens/', { workspace_id: workspaceId, label: 'seed' }, auth));
  const client = await expectOk(
    'OAuth client',
    call('POST', '/developer/oauth/clients/', { workspace_id: workspaceId, name: 'Demo App', redirect_uris: [`${BASE}/callback`] }, auth),
  );
  const clientId = String(client.json.client_id);
  const endUser = { email: `ada-${suffix}@example.com`, password: 'demo-user-password' };
  const registeredAt = Date.now();
  await expectOk(
    'end-user registration',
    call('POST', '/e/v1/auth/register/', { client_id: clientId, ...endUser, first_name: 'Ada', last_name: 'Lovelace' }),
  );
  const code = process.env.SMTP_URL ? undefined : await codeFromMailFolder(endUser.email, registeredAt);
  if (code) await expectOk('email verification', call('POST', '/e/v1/email/verify/', { email: endUser.email, code }));
  const testSp = await call('POST', '/saml/test-sp/register', { workspace_id: workspaceId }, auth);

  const rows: [string, string][] = [
    ['Service', BASE],
    ['Developer', `${DEVELOPER.email} / ${DEVELOPER.password}`],
    ['Developer token', `${String(token.json.token)}   (Authorization: Bearer …)`],
    ['Workspace', workspaceId],
    ['SCIM base URL', `${BASE}/scim/v2`],
    ['SCIM token', String(scim.json.token)],
    ['OAuth client', `client_id ${clientId}   client_secret ${String(client.json.client_secret)}`],
    [
      'End user',
      `${endUser.email} / ${endUser.password}   (${code ? 'verified' : `not verified: read the code mailed to ${endUser.email}`})`,
    ],
    ['Hosted login', `${BASE}/auth/login/?client_id=${encodeURIComponent(clientId)}`],
    [
      'Test SAML SP',
      testSp.status < 300
        ? String((testSp.json as { start_url?: string }).start_url ?? '')
        : `not registered (HTTP ${testSp.status}: ${String(testSp.json.message ?? '')})`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(
    `Demo data created in ${((Date.now() - started) / 1000).toFixed(1)} s (development only; do not reuse these credentials):\n`,
  );
  for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(width)}  ${v}\n`);
  process.stdout.write(`Try: open ${BASE}/saml/test-sp/?workspace_id=${workspaceId} and sign in as ${endUser.email}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`seed failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
