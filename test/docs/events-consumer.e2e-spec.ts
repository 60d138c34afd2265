import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  const dir = mkdtempSync(join(tmpdir(), 'events-consumer-'));
  beforeAll(async () => {
    t = await createTestApp({ DIRECTORY_EVENTS_SEAL_INTERVAL_MS: '50' });
  });
  afterAll(async () => {
    consumer?.kill();
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
    consumer = spawn(process.execPath, ['consumer.mjs'], {
      cwd: dir,
      env: { PATH: process.env.PATH, BASE_URL: t.baseUrl, DAT_TOKEN: s.dev.token, WORKSPACE_ID: s.ws.id },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [consumer.stdout!, consumer.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));

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
    // Whatever its snapshot already held (it may have started after the first of these writes) is not printed
    // again; every event after it is, once and in order, and the people and memberships it keeps are right.
    const printed = lines();
    expect(printed).toEqual(expected.slice(expected.length - printed.length));
    expect(output.join('')).not.toMatch(/Error/);
  });
});
