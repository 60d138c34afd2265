import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';

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
  return { context, page, problems };
}

export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}
