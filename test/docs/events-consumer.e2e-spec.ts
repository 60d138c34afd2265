import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { aScimGroup, aScimTenant, aScimUser, PATCH_OP, ScimTenant } from '../scim/scim-support';

const ROOT = join(__dirname, '..', '..');

/** The ```js block under docs/events.md's "Consuming without gaps", exactly as a reader copies it. */
function consumerSample(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'events.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Consuming without gaps'));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('docs/events.md has no js block under "Consuming without gaps"');
  return block[1];
}

/**
 * A loopback pass-through to the service that notes the paths asked: the test learns when the consumer
 * has taken its snapshot and is tailing, without touching the sample.
 */
async function recordingProxy(target: string, asked: string[]): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface Line {
  seq: number;
  type: string;
  subject: string;
  people: number;
  memberships: number;
}

/**
 * The Node consumer of docs/events.md runs as written, with nothing but Node: it starts from the
 * snapshot (the people already there are not replayed), then tails the feed from the snapshot's
 * seq and applies every later change, in order, without a gap.
 */
describe('docs/events.md: the feed consumer', () => {
  let t: TestApp;
  let consumer: ChildProcess | undefined;
  let proxy: Server | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'events-consumer-'));
  beforeAll(async () => {
    t = await createTestApp({ DIRECTORY_EVENTS_SEAL_INTERVAL_MS: '50' });
  });
  afterAll(async () => {
    consumer?.kill();
    proxy?.close();
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  const output: string[] = [];
  const lines = (): Line[] =>
    output
      .join('')
      .split('\n')
      .filter((line) => /^\d+ directory\./.test(line))
      .map((line) => {
        const [seq, type, ...rest] = line.split(' ');
        const memberships = Number(rest.pop());
        const people = Number(rest.pop());
        return { seq: Number(seq), type, subject: rest.join(' '), people, memberships };
      });
  const deactivate = (s: ScimTenant, id: string) =>
    s.patch(`/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(200);

  it('loads the snapshot, then prints and applies every later event in order', async () => {
    const s = await aScimTenant(t);
    const before = [await aScimUser(s), await aScimUser(s)];
    const group = await aScimGroup(s, 'Engineering', [before[0].id]);
    // The snapshot must see these numbered: the sample takes the snapshot's seq as its start.
    await eventually(async () => {
      const snapshot = await t.http().get('/developer/directory/').query({ workspace_id: s.ws.id }).set(s.dev.auth).expect(200);
      expect(snapshot.body.seq).toBe(4);
    });

    writeFileSync(join(dir, 'consumer.mjs'), consumerSample());
    const asked: string[] = [];
    const recording = await recordingProxy(t.baseUrl, asked);
    proxy = recording.server;
    consumer = spawn(process.execPath, ['consumer.mjs'], {
      cwd: dir,
      env: { PATH: process.env.PATH, BASE_URL: recording.url, DAT_TOKEN: s.dev.token, WORKSPACE_ID: s.ws.id },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [consumer.stdout!, consumer.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    // The writes below come after the snapshot: a slow start on a loaded machine would otherwise let the
    // snapshot hold all of them, and the sample rightly print nothing.
    await eventually(() => expect(asked.some((path) => path.startsWith('/developer/events/'))).toBe(true), { timeoutMs: 60_000 });

    const later = await aScimUser(s);
    await s
      .patch(`/Groups/${group.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'add', path: 'members', value: [{ value: later.id }] }] })
      .expect((res) => expect([200, 204]).toContain(res.status));
    await deactivate(s, before[1].id);
    await s
      .patch(`/Groups/${group.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'remove', path: `members[value eq "${before[0].id}"]` }],
      })
      .expect((res) => expect([200, 204]).toContain(res.status));

    const expected: Line[] = [
      { seq: 5, type: 'directory.user.created', subject: later.id, people: 3, memberships: 1 },
      { seq: 6, type: 'directory.group.user_added', subject: `${later.id} in ${group.id}`, people: 3, memberships: 2 },
      { seq: 7, type: 'directory.user.deactivated', subject: before[1].id, people: 3, memberships: 2 },
      { seq: 8, type: 'directory.group.user_removed', subject: `${before[0].id} in ${group.id}`, people: 3, memberships: 1 },
    ];
    await eventually(() => expect(lines().at(-1)).toEqual(expected[3]), { timeoutMs: 30_000 });
    // Every event after the snapshot is printed once and in order, and the people and memberships it keeps are right.
    expect(lines()).toEqual(expected);
    expect(output.join('')).not.toMatch(/Error/);
  });
});
