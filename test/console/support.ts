import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { uniqueEmail } from '../support/factories';

/** axe-core from node_modules, evaluated in the page (no CDN, and not an inline script the CSP would refuse). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Serious and critical accessibility violations of what the page shows now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export interface ConsoleBrowser {
  context: BrowserContext;
  page: Page;
  /** Script errors and CSP refusals seen by the page so far. */
  problems: string[];
  /**
   * The service's answers of 500 and above, and its requests that got no answer, seen by the page so far: not
   * failures by themselves (the console retries a 503 once, decision 0940), the first thing to read when a page did
   * not show what a test waited for.
   */
  failedAnswers: string[];
}

/** A fresh browser context on the service, with clipboard access (the Copy buttons) and error capture. */
export async function openConsole(browser: Browser, baseUrl: string, viewport = { width: 1280, height: 860 }): Promise<ConsoleBrowser> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  const failedAnswers: string[] = [];
  const ofTheService = (url: string) => url.startsWith(baseUrl);
  context.on('response', (response) => {
    if (response.status() >= 500 && ofTheService(response.url())) {
      failedAnswers.push(`${response.request().method()} ${response.url().slice(baseUrl.length)} answered ${response.status()}`);
    }
  });
  context.on('requestfailed', (request) => {
    if (!ofTheService(request.url())) return;
    failedAnswers.push(`${request.method()} ${request.url().slice(baseUrl.length)} failed: ${request.failure()?.errorText}`);
  });
  return { context, page, problems, failedAnswers };
}

export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** Signs up a developer in the console, creates a workspace and answers its id (the browser is on its SCIM page). */
export async function signUpWithWorkspace(page: Page, name: string): Promise<string> {
  await page.goto('/console/');
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.getByLabel('Name').fill('Grace Developer');
  await page.getByLabel('Email').fill(uniqueEmail('console-ws'));
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Workspaces' }).waitFor();
  await page.getByRole('button', { name: 'New workspace' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('heading', { name: 'SCIM provisioning' }).waitFor();
  const match = /\/console\/w\/([0-9a-f-]{36})\//.exec(page.url());
  if (!match) throw new Error(`not on a workspace page: ${page.url()}`);
  return match[1];
}
