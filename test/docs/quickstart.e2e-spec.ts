import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { AppProcess, spawnApp, SPAWN_HOOK_TIMEOUT_MS } from '../support/app-process';
import { launchChromium } from '../support/browser';
import { UpstreamOp } from '../sso-connections/support/upstream-op';

const run = promisify(execFile);
const QUICKSTART = resolve(__dirname, '../../docs/quickstart.md');

/** The `bash` blocks of each `## ` section of the quickstart, in order (`text` blocks are not run). */
function quickstartSections(markdown: string): { title: string; script: string }[] {
  return markdown
    .split(/^## /m)
    .slice(1)
    .map((section) => ({
      title: section.split('\n')[0].trim(),
      script: [...section.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]).join('\n'),
    }))
    .filter((s) => s.script.trim() !== '');
}

/** Each shell a reader might paste the blocks into: a plain `bash`, and one that stops on any error. */
const SHELLS = {
  // No -e: an ERR trap reports every failing command (a loop that did not wait leaves the next one failing).
  plain: `trap 'echo "@@failed line $LINENO: $BASH_COMMAND"' ERR`,
  strict: 'set -euo pipefail',
} as const;

/**
 * The quickstart cannot rot: its commands, taken from the file itself, run in one shell against a
 * zero-configuration instance (embedded database, mail to files, generated secrets and IdP), and the
 * browser step of the SAML journey is walked with Chromium on the URL the commands printed. They run
 * twice, in a plain bash and under `set -euo pipefail`, each against its own instance.
 */
describe('docs/quickstart.md', () => {
  let app: AppProcess;
  let plainApp: AppProcess;
  let browser: Browser;
  /** The company's IdP of section 5: panva's oidc-provider on loopback, with Grace's account. */
  let op: UpstreamOp;
  const dataDir = mkdtempSync(join(tmpdir(), 'idsvc-quickstart-'));
  const plainDataDir = mkdtempSync(join(tmpdir(), 'idsvc-quickstart-plain-'));
  // The IdP of section 5 is an http issuer on loopback, which development allows (OAUTH_JWKS_ALLOW_PRIVATE_TARGETS).
  const zeroConfig = (dir: string) => ({
    DATABASE_URL: '',
    REDIS_URL: '',
    SMTP_URL: '',
    DATA_DIR: dir,
    LOG_FILE: '',
    LOG_LEVEL: 'warn',
    OAUTH_JWKS_ALLOW_PRIVATE_TARGETS: 'true',
  });
  const idp = { clientId: 'quickstart-app', clientSecret: 'quickstart-idp-secret', password: 'grace-at-the-idp' };
  beforeAll(async () => {
    [app, plainApp, op] = await Promise.all([spawnApp(zeroConfig(dataDir)), spawnApp(zeroConfig(plainDataDir)), UpstreamOp.start()]);
    await op.setAccount('grace', { password: idp.password, email: 'grace@acme.test', email_verified: true });
    browser = await launchChromium();
  }, SPAWN_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([app?.stop(), plainApp?.stop(), op?.stop()]);
  });

  /** Runs every bash block in one shell; answers its output, the directory it ran in and per-section timings. */
  async function runQuickstart(shell: keyof typeof SHELLS, instance: AppProcess, dir: string) {
    const sections = quickstartSections(readFileSync(QUICKSTART, 'utf8'));
    expect(sections.map((s) => s.title.slice(0, 2))).toEqual(['0.', '1.', '2.', '3.', '4.', '5.']);
    const script = [SHELLS[shell], ...sections.flatMap((s, i) => [s.script, `echo "@@done ${i} $(date +%s%3N)"`])].join('\n');
    const cwd = mkdtempSync(join(tmpdir(), 'idsvc-quickstart-shell-'));
    const started = Date.now();
    const { stdout } = await run('bash', ['-c', script], {
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: tmpdir(),
        BASE: instance.baseUrl,
        DATA_DIR: dir,
        // What a reader copies from the app they registered at their IdP (section 5).
        IDP_ISSUER: op.issuer,
        IDP_CLIENT_ID: idp.clientId,
        IDP_CLIENT_SECRET: idp.clientSecret,
      },
      // A ceiling against a hang, not a speed target: every wait in the blocks is for a condition.
      timeout: SPAWN_HOOK_TIMEOUT_MS,
    }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`quickstart commands failed (${shell} bash): ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    const marks = [...stdout.matchAll(/^@@done (\d+) (\d+)$/gm)].map((m) => Number(m[2]));
    const timings = marks.map((t, i) => `${sections[i].title}: ${((t - (i === 0 ? started : marks[i - 1])) / 1000).toFixed(1)} s`);
    return { stdout, cwd, timings };
  }

  it(
    'runs every command of every journey in a plain bash without set -e, each waiting for what it needs',
    async () => {
      const { stdout, cwd } = await runQuickstart('plain', plainApp, plainDataDir);
      expect(stdout.split('\n').filter((line) => line.startsWith('@@failed'))).toEqual([]);
      expect(stdout).toMatch(/^@@done 5 /m);
      expect(stdout).toContain('"grace@acme.test"');
      // Section 4: the OpenID flow ended on the app's callback with a code, and UserInfo named Ada.
      expect(stdout).toContain('http://127.0.0.1:3000/callback?code=…&state=quickstart');
      expect(stdout).toContain('"email": "ada@acme.test"');
      expect(stdout).toContain('"new_device"');
      // Nothing is left where the reader ran the commands (no cookie jar holding a live session).
      expect(readdirSync(cwd)).toEqual([]);
    },
    SPAWN_HOOK_TIMEOUT_MS,
  );

  it(
    'runs every command of every journey under set -euo pipefail, and the test SP sign-in it points to succeeds',
    async () => {
      const { stdout, cwd, timings } = await runQuickstart('strict', app, dataDir);
      expect(stdout).toContain('"grace@acme.test"');
      expect(stdout).toContain('"new_device"');
      expect(readdirSync(cwd)).toEqual([]);
      const page = /^Open (\S+) in a browser$/m.exec(stdout)?.[1];
      expect(page).toBeDefined();

      const browserStarted = Date.now();
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(page!);
      await tab.getByRole('button', { name: 'Sign in with SAML' }).click();
      await tab.waitForURL(/\/auth\/login\//);
      expect(await tab.textContent('body')).toContain('Acme');
      await tab.getByLabel('Email').fill('ada@acme.test');
      await tab.getByLabel('Password').fill('a-long-user-password');
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.waitForURL(/\/saml\/test-sp\/acs$/);
      expect(await tab.textContent('h1')).toBe('Signed in: the assertion is valid');
      expect(await tab.textContent('#name-id')).toBe('ada@acme.test');
      await context.close();
      timings.push(`3. browser sign-in through the test SP: ${((Date.now() - browserStarted) / 1000).toFixed(1)} s`);

      // Section 5: the redirect URI registered at the IdP, then Grace (SCIM-provisioned, no password of ours)
      // signs in there and lands signed in as herself.
      const redirectUri = /^Register (\S+) as the app's redirect URI at your IdP$/m.exec(stdout)?.[1];
      const signIn = /^Then open (\S+) in a browser$/m.exec(stdout)?.[1];
      expect({ redirectUri, signIn }).toEqual({ redirectUri: expect.stringContaining('/callback'), signIn: expect.any(String) });
      await op.registerClient({ client_id: idp.clientId, client_secret: idp.clientSecret, redirect_uris: [redirectUri!] });
      const idpStarted = Date.now();
      const graceContext = await browser.newContext();
      const grace = await graceContext.newPage();
      await grace.goto(signIn!);
      await grace.waitForURL((url) => url.href.startsWith(`${op.issuer}/interaction/`));
      await grace.getByLabel('Username').fill('grace');
      await grace.getByLabel('Password').fill(idp.password);
      await grace.getByRole('button', { name: 'Sign in to Acme' }).click();
      await grace.getByRole('heading', { name: "You're signed in" }).waitFor();
      expect(await grace.textContent('body')).toContain('as grace@acme.test');
      await graceContext.close();
      timings.push(`5. browser sign-in through the IdP: ${((Date.now() - idpStarted) / 1000).toFixed(1)} s`);
      process.stdout.write(`quickstart journey timings (commands as written, zero-config instance):\n  ${timings.join('\n  ')}\n`);
    },
    SPAWN_HOOK_TIMEOUT_MS,
  );

  /** `npm run seed`'s script, run as the README says, against the same instance. */
  async function seed(): Promise<Map<string, string>> {
    const { stdout } = await run(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', resolve(__dirname, '../../scripts/seed.ts'), '--base', app.baseUrl],
      {
        cwd: mkdtempSync(join(tmpdir(), 'idsvc-seed-')),
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: tmpdir(),
          DATA_DIR: dataDir,
          NODE_PATH: resolve(__dirname, '../../node_modules'),
          TS_NODE_PROJECT: resolve(__dirname, '../../tsconfig.json'),
        },
        timeout: 60_000,
      },
    );
    return new Map([...stdout.matchAll(/^ {2}(\S[^\n]*?) {2,}(\S[^\n]*)$/gm)].map((m) => [m[1].trim(), m[2].trim()]));
  }

  it('npm run seed prints demo credentials that work, a verified end user and the test SP, and reuses its developer', async () => {
    const first = await seed();
    const developerToken = first.get('Developer token')!.split(/\s/)[0];
    const workspaceId = first.get('Workspace')!;
    const workspaces = await fetch(`${app.baseUrl}/e/v1/developer/workspaces/`, { headers: { Authorization: `Bearer ${developerToken}` } });
    expect(workspaces.status).toBe(200);
    expect(JSON.stringify(await workspaces.json())).toContain(workspaceId);
    const users = await fetch(`${app.baseUrl}/scim/v2/Users`, { headers: { Authorization: `Bearer ${first.get('SCIM token')}` } });
    expect(users.status).toBe(200);
    expect(first.get('End user')).toMatch(/\(verified\)$/);
    const [email, password] = first
      .get('End user')!
      .split(/\s+/)
      .filter((word) => word !== '/');
    const clientId = /client_id (\S+)/.exec(first.get('OAuth client')!)![1];
    const login = await fetch(`${app.baseUrl}/e/v1/auth/login/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, email, password }),
    });
    expect(login.status).toBe(200);
    expect(first.get('Test SAML SP')).toMatch(/^http:\/\/.+\/saml\/test-sp\//);

    const second = await seed();
    expect(second.get('Developer')).toBe(first.get('Developer'));
    expect(second.get('Workspace')).not.toBe(workspaceId);
  });
});
