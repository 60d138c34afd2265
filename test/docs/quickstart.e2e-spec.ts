import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Browser, chromium } from 'playwright-core';
import { AppProcess, spawnApp } from '../support/app-process';

const run = promisify(execFile);
const QUICKSTART = resolve(__dirname, '../../docs/quickstart.md');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

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

/**
 * The quickstart cannot rot: its commands, taken from the file itself, run in one shell against a
 * zero-configuration instance (embedded database, mail to files, generated secrets and IdP), and the
 * browser step of the SAML journey is walked with Chromium on the URL the commands printed.
 */
describe('docs/quickstart.md', () => {
  let app: AppProcess;
  let browser: Browser;
  const dataDir = mkdtempSync(join(tmpdir(), 'idsvc-quickstart-'));
  beforeAll(async () => {
    app = await spawnApp({ DATABASE_URL: '', REDIS_URL: '', SMTP_URL: '', DATA_DIR: dataDir, LOG_FILE: '', LOG_LEVEL: 'warn' });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('runs every command of every journey, and the test SP sign-in it points to succeeds', async () => {
    const sections = quickstartSections(readFileSync(QUICKSTART, 'utf8'));
    expect(sections.map((s) => s.title.slice(0, 2))).toEqual(['0.', '1.', '2.', '3.']);
    const script = ['set -euo pipefail', ...sections.flatMap((s, i) => [s.script, `echo "@@done ${i} $(date +%s%3N)"`])].join('\n');
    const started = Date.now();
    const { stdout } = await run('bash', ['-c', script], {
      cwd: mkdtempSync(join(tmpdir(), 'idsvc-quickstart-shell-')),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmpdir(), BASE: app.baseUrl, DATA_DIR: dataDir },
      timeout: 120_000,
    }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`quickstart commands failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    const marks = [...stdout.matchAll(/^@@done (\d+) (\d+)$/gm)].map((m) => Number(m[2]));
    const timings = marks.map((t, i) => `${sections[i].title}: ${((t - (i === 0 ? started : marks[i - 1])) / 1000).toFixed(1)} s`);

    expect(stdout).toContain('"grace@acme.test"');
    expect(stdout).toContain('"new_device"');
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
    process.stdout.write(`quickstart journey timings (commands as written, zero-config instance):\n  ${timings.join('\n  ')}\n`);
  }, 180_000);
});
