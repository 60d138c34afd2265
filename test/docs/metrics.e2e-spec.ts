import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper, anOAuthClient, aWorkspace, uniqueEmail } from '../support/factories';

const OPERATIONS = resolve(__dirname, '../../docs/operations.md');

/** Rows of the metrics table in docs/operations.md: `| \`name\` | type | labels | meaning |`. */
function documentedMetrics(): Map<string, { type: string; labels: string[] }> {
  const rows = [...readFileSync(OPERATIONS, 'utf8').matchAll(/^\| `([a-z_]+)` \| (counter|gauge|histogram|summary) \|([^|]*)\|/gm)];
  return new Map(
    rows.map((m) => [m[1], { type: m[2], labels: [...m[3].replace(/\([^)]*\)/g, '').matchAll(/`([a-z_]+)`/g)].map((l) => l[1]) }]),
  );
}

/** The operator's documentation of /metrics is the real list: every metric exported is documented, and only those. */
describe('docs/operations.md documents /metrics', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('lists every metric the service exports, with its type, and none that it does not export', async () => {
    const res = await t.http().get('/metrics').expect(200);
    const exported = new Map([...res.text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
    const documented = documentedMetrics();
    expect(exported.size).toBeGreaterThan(0);
    expect([...documented.keys()].sort()).toEqual([...exported.keys()].sort());
    for (const [name, type] of exported) expect(`${name} ${documented.get(name)?.type}`).toBe(`${name} ${type}`);
  });

  it('names the labels each exported series carries', async () => {
    const documented = documentedMetrics();
    // Series appear once observed: a sign-up mails a code through the job queue and writes audit rows.
    const dev = await aDeveloper(t);
    const client = await anOAuthClient(t, dev, await aWorkspace(t, dev), 'Metrics');
    await t
      .http()
      .post('/e/v1/auth/register/')
      .send({ client_id: client.client_id, email: uniqueEmail('metrics'), password: 'pw-metrics-1' })
      .expect(201);
    const res = await eventually(async () => {
      const scraped = await t.http().get('/metrics').expect(200);
      expect(scraped.text).toMatch(/^jobs_runs_total\{/m);
      return scraped;
    });
    let checked = 0;
    for (const m of res.text.matchAll(/^([a-z_]+?)(?:_bucket|_sum|_count)?\{([^}]*)\} /gm)) {
      const name = documented.has(m[1]) ? m[1] : m[1].replace(/_(bucket|sum|count)$/, '');
      const labels = [...m[2].matchAll(/([a-z_]+)="/g)].map((l) => l[1]).filter((l) => l !== 'le');
      for (const label of labels) expect(`${name}: ${label}`).toBe(`${name}: ${documented.get(name)?.labels.find((d) => d === label)}`);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });
});
