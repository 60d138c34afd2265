import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createTestApp } from '../support/app';
import { AppProcess, spawnApp, SPAWN_HOOK_TIMEOUT_MS } from '../support/app-process';
import { eventually } from '../support/eventually';
import { freePort } from '../support/private-stores';
import { setUpTenantAt } from '../support/remote-tenant';

/**
 * `npm start` on a bare machine: no DATABASE_URL (embedded PGlite, one connection),
 * no SMTP_URL (mail written as .eml files), no Redis. The main flows must work there too.
 */
describe('zero-config start (embedded database, mail to files)', () => {
  let app: AppProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'idsvc-zero-'));
  beforeAll(async () => {
    app = await spawnApp({ DATABASE_URL: '', REDIS_URL: '', SMTP_URL: '', DATA_DIR: dataDir, LOG_FILE: '', LOG_LEVEL: 'warn' });
  }, SPAWN_HOOK_TIMEOUT_MS);
  afterAll(() => app?.stop());

  it('is ready, and a developer can set up a workspace and an end user can register, verify and sign in', async () => {
    const http = () => request(app.baseUrl);
    await http().get('/health/ready').expect(200);
    const { auth, workspaceId, clientId } = await setUpTenantAt(app.baseUrl);

    await http()
      .post('/e/v1/auth/register/')
      .send({ client_id: clientId, email: 'ada@example.test', password: 'ada-password-1' })
      .expect(201);
    const eml = await registrationMail(join(dataDir, 'mail'));
    const code = /\b(\d{6})\b/.exec(eml.replace(/=\r?\n/g, ''))?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await http().post('/e/v1/email/verify/').send({ email: 'ada@example.test', code }).expect(200);
    const session = await http()
      .post('/e/v1/auth/login/')
      .send({ client_id: clientId, email: 'ada@example.test', password: 'ada-password-1' })
      .expect(200);
    await http()
      .get('/user/security/sessions/')
      .set({ Authorization: `Bearer ${session.body.access_token}` })
      .expect(200);
    const audit = await http().get('/developer/audit/').query({ workspace_id: workspaceId }).set(auth).expect(200);
    expect(audit.body.results.map((e: { event_type: string }) => e.event_type)).toEqual(
      expect.arrayContaining(['register', 'email_verify_send', 'email_verify_confirm', 'login_success']),
    );
  }, 120000);

  it('creates an SSO connection with email domains on the one-connection database', async () => {
    const { auth, workspaceId } = await setUpTenantAt(app.baseUrl);
    const created = await request(app.baseUrl)
      .post('/developer/external-providers/')
      .set(auth)
      .send({
        workspace_id: workspaceId,
        name: 'Initech IdP',
        protocol: 'oidc',
        domains: ['initech.example'],
        oidc: { issuer: 'https://idp.initech.example', client_id: 'c', client_secret: 's' },
      })
      .expect(201);
    expect(created.body.domains).toEqual(['initech.example']);
  }, 120000);

  it('serves an HTML landing page at /, the API docs and the SAML metadata of a generated development IdP', async () => {
    const http = () => request(app.baseUrl);
    const landing = await http()
      .get('/')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    for (const link of ['/console/', '/docs', '/openapi.json', '/health/ready', '/guide/quickstart', '/saml/test-sp/']) {
      expect(landing.text).toContain(`href="${link}"`);
    }
    await http()
      .get('/guide/quickstart')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    await http().get('/docs').redirects(1).expect(200);
    // The developer console, deep links included, with its own strict CSP.
    const consolePage = await http()
      .get('/console/w/0b6f2d4e-5a7c-4c1e-9f3a-2d8e6b1c7a90/audit')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(consolePage.text).toContain('<div id="root">');
    expect(consolePage.headers['content-security-policy']).toContain("default-src 'none'");
    const metadata = await http().get('/saml/metadata/').expect(200);
    expect(metadata.text).toContain(`entityID="${app.baseUrl}/saml/metadata/"`);
    expect(existsSync(join(dataDir, 'saml', 'idp-key.pem'))).toBe(true);
    expect(app.logs.join('\n')).toMatch(/DEVELOPMENT SAML IdP/);
  });
});

/** The first registration mail written as a .eml file under mailDir, once there is one. */
function registrationMail(mailDir: string): Promise<string> {
  return eventually(
    () => {
      const files = (existsSync(mailDir) ? readdirSync(mailDir, { withFileTypes: true }) : []).filter(
        (f) => f.isFile() && /registration_confirmation-.*\.eml$/.test(f.name),
      );
      if (files.length === 0) throw new Error(`no registration mail in ${mailDir} yet`);
      return readFileSync(join(mailDir, files[0].name), 'utf8');
    },
    { timeoutMs: 60_000, intervalMs: 100 },
  );
}

/**
 * The README's pointer for settings: `cp .env.example .env`. Its empty values (MAIL_DIR=, BACKUP_DIR=,
 * SMTP_URL=, …) must mean "unset", so the copy starts the same zero-config service (decision 0308).
 */
describe('a copy of .env.example as the .env file', () => {
  let app: AppProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'idsvc-env-example-'));
  beforeAll(async () => {
    const port = await freePort();
    const example = readFileSync(join(__dirname, '..', '..', '.env.example'), 'utf8');
    // Only where this copy must differ from the file a newcomer copies: its own port and data directory.
    const copy = example
      .replace(/^PORT=.*$/m, `PORT=${port}`)
      .replace(/^PUBLIC_BASE_URL=.*$/m, `PUBLIC_BASE_URL=http://127.0.0.1:${port}`)
      .replace(/^DATA_DIR=.*$/m, `DATA_DIR=${dataDir}`);
    const envFile = join(dataDir, '.env');
    writeFileSync(envFile, copy);
    // The file decides every variable it lists: none comes from the test environment.
    const unset = Object.fromEntries([...example.matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => [m[1], '']));
    app = await spawnApp({ ...unset, ENV_FILE: envFile }, { port });
  }, SPAWN_HOOK_TIMEOUT_MS);
  afterAll(() => app?.stop());

  it('writes mail where the docs say (DATA_DIR/mail), not into an empty path', async () => {
    await request(app.baseUrl).get('/health/ready').expect(200);
    const { clientId } = await setUpTenantAt(app.baseUrl);
    await request(app.baseUrl)
      .post('/e/v1/auth/register/')
      .send({ client_id: clientId, email: 'grace@example.test', password: 'grace-password-1' })
      .expect(201);
    const eml = await registrationMail(join(dataDir, 'mail'));
    expect(eml).toContain('grace@example.test');
  }, 120000);
});

describe('production without SAML configuration', () => {
  it('does not generate an IdP: metadata answers 503 not_configured, and / says SAML is off', async () => {
    const t = await createTestApp({ NODE_ENV: 'production' });
    try {
      const res = await t.http().get('/saml/metadata/').expect(503);
      expect(res.body.error).toBe('not_configured');
      const landing = await t.http().get('/').expect(200);
      expect(landing.text).toContain('not configured');
      // Production serves the console as development does.
      expect((await t.http().get('/console/').expect(200)).text).toContain('<div id="root">');
      expect(landing.text).not.toContain('/saml/test-sp/');
      expect(existsSync(join(t.config.DATA_DIR, 'saml'))).toBe(false);
    } finally {
      await t.close();
    }
  });
});
