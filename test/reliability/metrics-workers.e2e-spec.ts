import { request as httpRequest } from 'node:http';
import { AppProcess, spawnApp, SPAWN_HOOK_TIMEOUT_MS } from '../support/app-process';
import { eventually } from '../support/eventually';
import { samlEnv } from '../saml/support/saml-env';

const REFUSALS = 40;

/** One request on a connection of its own, so the cluster hands each to the next worker. */
function getOnNewConnection(app: AppProcess, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${app.baseUrl}${path}`, { agent: false, headers: { Connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The pids of the workers whose access log recorded a request to `path`. */
function pidsThatAnswered(app: AppProcess, path: string): Set<number> {
  const pids = new Set<number>();
  for (const line of app.logs) {
    try {
      const entry = JSON.parse(line) as { pid?: number; req?: { path?: string } };
      if (entry.req?.path === path && entry.pid !== undefined) pids.add(entry.pid);
    } catch {
      /* not a JSON log line */
    }
  }
  return pids;
}

function counterValue(metrics: string, series: string): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** With several workers, a scrape answered by any one of them counts what every worker did (decision 0212). */
describe('/metrics with two workers', () => {
  let app: AppProcess;
  beforeAll(async () => {
    app = await spawnApp({ ...samlEnv(), WEB_CONCURRENCY: '2', LOG_FORMAT: 'json', LOG_FILE: '', LOG_LEVEL: 'info' });
    // Both workers serve before the counting starts (the first one live is not the second).
    await eventually(() => expect(app.logs.filter((l) => l.includes('listening on')).length).toBe(2), { timeoutMs: 120_000 });
  }, SPAWN_HOOK_TIMEOUT_MS);
  afterAll(() => app?.stop());

  it('counts every refusal of every worker, whichever worker answers the scrape', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < REFUSALS; i++) statuses.push(await getOnNewConnection(app, '/saml/sso/?SAMLRequest=not-an-authn-request'));
    expect(statuses.every((s) => s === 400)).toBe(true);
    // The refusals were spread over both workers: neither one's own counter can say 40.
    await eventually(() => expect(pidsThatAnswered(app, '/saml/sso/').size).toBe(2));

    const series = 'saml_sso_unattributed_failures_total{reason="malformed_request"}';
    // Several scrapes on new connections (the cluster deals connections round robin): each worker
    // answers some, and each answers the whole process's count, not its own half.
    for (let i = 0; i < 6; i++) {
      const scraped = await new Promise<string>((resolve, reject) => {
        const req = httpRequest(`${app.baseUrl}/metrics`, { agent: false, headers: { Connection: 'close' } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`/metrics answered ${res.statusCode}`))));
        });
        req.on('error', reject);
        req.end();
      });
      expect(counterValue(scraped, series)).toBe(REFUSALS);
    }
  }, 120_000);
});
