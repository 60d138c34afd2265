import { AUDIT_EVENTS, AUDIT_SEED_COLUMNS, AUDIT_SEED_SELECT, deepPageCursors } from '../lib/audit-seed';
import type { BenchContext, BenchRequest, Scenario } from '../lib/types';

interface AuditWorkspace {
  workspaceId: string;
  headers: Record<string, string>;
  /** created_at of the newest seeded event, in ms; event g (1…AUDIT_EVENTS) is g ms older. */
  newestMs: number;
}

/**
 * One workspace holding 1,000,000 audit events, shared by both audit scenarios.
 * Seeded with one INSERT … SELECT generate_series in a fresh bench database (the table
 * refuses UPDATE/DELETE/TRUNCATE). Events are 1 ms apart, so created_at is unique in
 * the workspace as the cursor requires. The created_at trigger is skipped for the seed
 * (session_replication_role = replica): it bumps colliding timestamps, and by
 * construction there are none; the unique index still checks.
 */
async function auditWorkspace(ctx: BenchContext): Promise<AuditWorkspace> {
  return ctx.once('audit-1m', async () => {
    const dev = await ctx.developer();
    const newestMs = Math.floor(Date.now() / 1000) * 1000 - 1000;
    const ws = await ctx.workspace('bench audit 1M');
    ctx.log(`seeding ${AUDIT_EVENTS.toLocaleString('en')} audit events in workspace ${ws.id}`);
    const started = Date.now();
    const client = await ctx.db.connect();
    try {
      await client.query('SET session_replication_role = replica');
      await client.query(`INSERT INTO audit_events ${AUDIT_SEED_COLUMNS} ${AUDIT_SEED_SELECT}`, [ws.id, newestMs, AUDIT_EVENTS]);
    } finally {
      await client.query('RESET session_replication_role');
      client.release();
    }
    // Now rather than during a measurement: a million fresh rows would trigger autovacuum.
    await ctx.db.query('VACUUM (ANALYZE) audit_events');
    ctx.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { workspaceId: ws.id, headers: dev.authHeaders, newestMs };
  });
}

const targets = { minThroughputRatio: 0.5, maxP99Ms: 25 };

export const scenarios: Scenario<AuditWorkspace>[] = [
  {
    name: 'audit-list-first-page',
    area: 'spine',
    title: '`GET /developer/audit/` first page (50 events) of a workspace holding 1,000,000 events',
    baseline: 'pk-select',
    targets,
    setup: auditWorkspace,
    requests: (s) => [{ path: `/developer/audit/?workspace_id=${s.workspaceId}`, headers: s.headers }],
  },
  {
    name: 'audit-list-deep-page',
    area: 'spine',
    title: `\`GET /developer/audit/?cursor=…\` deep pages (50 events, cursors 500,000 to 990,000 events back) of the same workspace`,
    baseline: 'pk-select',
    targets,
    setup: auditWorkspace,
    requests: (s) => deepPages(s),
  },
  {
    // Context, no target: the same deep pages against the floor of any implementation in this stack.
    name: 'audit-list-deep-page-vs-floor',
    area: 'spine',
    title: 'the same deep pages as `audit-list-deep-page`, compared with `page-select` (the bare page query) instead of `pk-select`',
    baseline: 'page-select',
    setup: auditWorkspace,
    requests: (s) => deepPages(s),
  },
];

/** The deep pages, newest cursor first. */
function deepPages(s: AuditWorkspace): BenchRequest[] {
  return deepPageCursors(s.newestMs).map((cursor) => ({
    path: `/developer/audit/?workspace_id=${s.workspaceId}&cursor=${encodeURIComponent(cursor)}`,
    headers: s.headers,
  }));
}
