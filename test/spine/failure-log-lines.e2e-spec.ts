import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aDeveloper, TestDeveloper } from '../support/factories';

/**
 * There is no per-request log context (decision 0011): a failure line written while a request
 * is served names the request itself, so an operator can join it to the access line, the
 * client's X-Request-Id and the audit trail.
 */
describe('failure log lines name their request', () => {
  // In the run's log directory when there is one, so the global teardown scans it for leaked secrets too.
  const logFile = join(
    process.env.TEST_LOG_DIR ?? mkdtempSync(join(tmpdir(), 'idsvc-failure-log-')),
    `failure-log-lines-${process.pid}.log`,
  );
  let t: TestApp;
  let dev: TestDeveloper;
  beforeAll(async () => {
    t = await createTestApp({ LOG_FILE: logFile, LOG_LEVEL: 'info' });
    dev = await aDeveloper(t);
  });
  afterAll(() => t.close());

  it('a failed audit write names the request id the client sent, which the access line carries too', async () => {
    await t.dataSource.query(
      `ALTER TABLE audit_events ADD CONSTRAINT test_reject_for_log CHECK (event_type <> 'workspace_create') NOT VALID`,
    );
    try {
      await t
        .http()
        .post('/e/v1/developer/workspaces/')
        .set(dev.auth)
        .set('X-Request-Id', 'req-failure-log-1')
        .send({ name: 'unaudited' })
        .expect(201);
    } finally {
      await t.dataSource.query(`ALTER TABLE audit_events DROP CONSTRAINT test_reject_for_log`);
    }
    const lines = await linesMentioning('req-failure-log-1', 2);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 50,
          msg: expect.stringMatching(/^audit write failed for workspace_create \(workspace [0-9a-f-]{36}, request req-failure-log-1\)/),
        }),
        expect.objectContaining({
          req: { id: 'req-failure-log-1', method: 'POST', path: '/e/v1/developer/workspaces/' },
          msg: 'request completed',
        }),
      ]),
    );
  });

  /** Log lines are flushed in chunks at least every 250 ms: poll the file until `count` lines mention `text`. */
  async function linesMentioning(text: string, count: number): Promise<Record<string, unknown>[]> {
    const lines = await eventually(() => {
      const found = existsSync(logFile)
        ? readFileSync(logFile, 'utf8')
            .split('\n')
            .filter((line) => line.includes(text))
        : [];
      if (found.length < count) throw new Error(`${found.length} of ${count} log lines mention ${text}: ${found.join('\n')}`);
      return found;
    });
    return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  }
});
