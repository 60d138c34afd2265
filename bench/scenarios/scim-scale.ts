import { randomInt, randomUUID } from 'node:crypto';
import type { BenchContext, BenchRequest, Scenario } from '../lib/types';
import { newUserBody } from './scim';

/**
 * Issue 14: the shapes an identity provider sends at scale, in one workspace of 100,000 SCIM users:
 * many PATCHes adding one member each to one growing group ("Everyone"), random pages of 50 anywhere
 * in the workspace, and user creation, each beside the pk-select baseline of the same run. Compare
 * the group PATCH with `POST /Users` of the same run too (target: ≥ 40 % of its rate).
 */
const USERS = 100_000;
/** The group starts with this many members and grows by one per PATCH (toward 10,000 in a default run). */
const GROUP_START = 5_000;
const PAGES = 500;

interface ScaleWorkspace {
  ctx: BenchContext;
  workspaceId: string;
  headers: Record<string, string>;
  groupId: string;
  /** Users not yet in the group, handed out one per PATCH. */
  outside: string[];
  handedOut: number;
}

async function scaleWorkspace(ctx: BenchContext): Promise<ScaleWorkspace> {
  return ctx.once('scim-scale-100k', async () => {
    const dev = await ctx.developer();
    const ws = await ctx.workspace('bench scim scale');
    const minted = await ctx.api.post<{ token: string }>('/developer/scim/tokens/', {
      headers: dev.authHeaders,
      body: { workspace_id: ws.id, label: 'bench scale' },
    });
    const headers = { authorization: `Bearer ${minted.body.token}`, 'content-type': 'application/scim+json' };
    ctx.log(`seeding ${USERS.toLocaleString('en')} SCIM users in workspace ${ws.id}`);
    await ctx.db.query(
      `INSERT INTO end_users (workspace_id, email, first_name, last_name, is_active, email_verified, created_at, updated_at)
       SELECT $1, 'scale' || g || '@bench.example', 'Given' || g, 'Family' || g, true, true,
              now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
         FROM generate_series(1, $2::int) g`,
      [ws.id, USERS],
    );
    const group = await ctx.api.post<{ id: string }>('/scim/v2/Groups', {
      headers,
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: `Everyone ${randomUUID()}` },
    });
    await ctx.db.query(
      `INSERT INTO scim_group_members (group_id, user_id, workspace_id)
       SELECT $2, id, $1 FROM end_users WHERE workspace_id = $1 ORDER BY random() LIMIT $3`,
      [ws.id, group.body.id, GROUP_START],
    );
    await ctx.db.query('VACUUM (ANALYZE) end_users');
    await ctx.db.query('VACUUM (ANALYZE) scim_group_members');
    const { rows } = await ctx.db.query<{ id: string }>(
      `SELECT id FROM end_users u WHERE workspace_id = $1
          AND NOT EXISTS (SELECT 1 FROM scim_group_members m WHERE m.group_id = $2 AND m.user_id = u.id)
        ORDER BY random()`,
      [ws.id, group.body.id],
    );
    for (const line of await explainDeepPage(ctx, ws.id)) ctx.log(`plan: ${line}`);
    return { ctx, workspaceId: ws.id, headers, groupId: group.body.id, outside: rows.map((r) => r.id), handedOut: 0 };
  });
}

/** The page query of `GET /Users?startIndex=99951&count=50`, as the repository runs it, explained. */
async function explainDeepPage(ctx: BenchContext, workspaceId: string): Promise<string[]> {
  const scope = `u.workspace_id = $1 AND COALESCE(u.oauth_client_id, '00000000-0000-0000-0000-000000000000'::uuid) = '00000000-0000-0000-0000-000000000000'::uuid`;
  const sql = `SELECT u.id, u.email FROM end_users u
    JOIN (SELECT u.id FROM end_users u WHERE ${scope} ORDER BY u.created_at, u.id LIMIT 50 OFFSET 99950) page ON page.id = u.id
   ORDER BY u.created_at, u.id`;
  const count = `SELECT COALESCE(sum(c.users), 0)::int AS total FROM scim_user_counts c WHERE c.workspace_id = $1`;
  const lines: string[] = [];
  for (const q of [sql, count]) {
    const { rows } = await ctx.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${q}`, [workspaceId]);
    lines.push(q.replace(/\s+/g, ' '), ...rows.map((r) => `  ${r['QUERY PLAN']}`));
  }
  return lines;
}

/** After the run: every handed-out member present once, every one audited. */
async function checkGroup(s: ScaleWorkspace): Promise<void> {
  const { ctx } = s;
  const { rows } = await ctx.db.query<{ members: number; distinct: number; audited: number }>(
    `SELECT (SELECT count(*)::int FROM scim_group_members WHERE group_id = $1) AS members,
            (SELECT count(DISTINCT user_id)::int FROM scim_group_members WHERE group_id = $1) AS distinct,
            (SELECT COALESCE(sum((metadata->>'members_added')::int), 0)::int FROM audit_events
              WHERE workspace_id = $2 AND event_type = 'scim_group_update' AND target_id = $1::text) AS audited`,
    [s.groupId, s.workspaceId],
  );
  const { members, distinct, audited } = rows[0];
  const added = members - GROUP_START;
  ctx.log(
    `group after the run: ${members} members (${distinct} distinct), ${added} added by ${s.handedOut} PATCHes sent, ${audited} audited`,
  );
  // A request still in flight when the window closed may have been cut off: at most one per connection.
  if (members !== distinct || added !== audited || added > s.handedOut || added < s.handedOut - 64) {
    throw new Error(`group PATCH lost or duplicated members: ${JSON.stringify({ members, distinct, audited, sent: s.handedOut })}`);
  }
}

export const scenarios: Scenario<ScaleWorkspace>[] = [
  {
    name: 'scim-scale-user-create',
    area: 'scim-scale',
    title: '`POST /scim/v2/Users` in a workspace of 100,000 users (user row, counter row, audit row: one transaction)',
    baseline: 'pk-select',
    targets: { minThroughputRatio: 0.5 },
    setup: scaleWorkspace,
    requests: (s) => [{ method: 'POST', path: '/scim/v2/Users', headers: s.headers, newBody: newUserBody }],
  },
  {
    name: 'scim-scale-group-patch',
    area: 'scim-scale',
    title:
      '`PATCH /scim/v2/Groups/{id}` adding one member as Okta and Entra send it (204, decision 0133), 10 connections on one group growing from 5,000 members',
    baseline: 'pk-select',
    targets: { maxP99Ms: 100 },
    setup: scaleWorkspace,
    requests: (s): BenchRequest[] => [
      {
        method: 'PATCH',
        path: `/scim/v2/Groups/${s.groupId}`,
        headers: s.headers,
        newBody: () => {
          const id = s.outside[s.handedOut++ % s.outside.length];
          return JSON.stringify({
            schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
            Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }],
          });
        },
      },
    ],
    teardown: checkGroup,
  },
  {
    name: 'scim-scale-random-page',
    area: 'scim-scale',
    title: '`GET /scim/v2/Users?startIndex=<random>&count=50` in a workspace of 100,000 users (exact totalResults)',
    baseline: 'pk-select',
    targets: { maxP99Ms: 100 },
    setup: scaleWorkspace,
    requests: (s) =>
      Array.from({ length: PAGES }, () => ({
        path: `/scim/v2/Users?startIndex=${randomInt(1, USERS + 1)}&count=50`,
        headers: s.headers,
      })),
  },
];
