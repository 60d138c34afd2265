/**
 * The audit page's repository path before and after decision 0140, in one process: the page
 * statement on the driver's pool field read by the hand-written view mapper (before), against
 * AuditRepository's own path (typed statement, entity-derived row shape, then the view mapper).
 * 200 events; alternating windows of 600 pages; this process's CPU per page.
 *
 *   npx ts-node --transpile-only bench/audit-page-path.ts
 */
import 'reflect-metadata';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source';
import { runMigrations } from '../src/database/migrate';
import { json, QueryRow, text, textOrNull } from '../src/database/rows';
import { auditPageQuery, AuditRepository, utcTextToIsoMicros } from '../src/audit/audit.repository';
import { databaseSuffix, recreateDatabase } from './lib/postgres';

/** The view mapper AuditRepository had before decision 0140 (copied as it was). */
function oldView(row: QueryRow) {
  return {
    id: text(row, 'id'),
    workspace_id: textOrNull(row, 'workspace_id'),
    event_type: text(row, 'event_type'),
    severity: text(row, 'severity'),
    actor_type: text(row, 'actor_type'),
    actor_id: textOrNull(row, 'actor_id'),
    actor_email: textOrNull(row, 'actor_email'),
    target_type: textOrNull(row, 'target_type'),
    target_id: textOrNull(row, 'target_id'),
    oauth_client_id: textOrNull(row, 'oauth_client_id'),
    ip_address: textOrNull(row, 'ip_address'),
    user_agent: textOrNull(row, 'user_agent'),
    request_id: textOrNull(row, 'request_id'),
    message: text(row, 'message'),
    metadata: json(row, 'metadata'),
    created_at: utcTextToIsoMicros(text(row, 'created_at')),
  };
}
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
async function main() {
  const url = await recreateDatabase(`identity_bench_auditpage_${databaseSuffix(process.cwd())}`);
  const ds = await new DataSource(dataSourceOptions({ url, embedded: false, poolSize: 10, statementTimeoutMs: 0 })).initialize();
  await runMigrations(ds);
  const [ws] = await ds.query(`INSERT INTO workspaces (name) VALUES ('b') RETURNING id`);
  const [dev] = await ds.query(`INSERT INTO developers (email, name, password_hash) VALUES ('d@x.test','d','x') RETURNING id`);
  await ds.query(`INSERT INTO workspace_members (workspace_id, developer_id, role) VALUES ($1,$2,'owner')`, [ws.id, dev.id]);
  for (let i = 0; i < 200; i++) {
    await ds.query(
      `SELECT audit_append($1::uuid,'scim_user_create','info','scim_token',NULL,NULL,'EndUser','t',NULL,'1.2.3.4','ua',NULL,'m','{"a":1}'::jsonb, now() - interval '1 hour' + ($2 || ' ms')::interval)`,
      [ws.id, String(i)],
    );
  }
  const repo = new AuditRepository(ds);
  const query = { workspace_id: ws.id };
  const bound = await repo.stableBefore(ws.id);
  const pool = (ds.driver as unknown as { master: Pool }).master;
  const { sql, params } = auditPageQuery(query, bound);
  const before = async () => (await pool.query({ name: 'old_page', text: sql, values: params })).rows.map(oldView);
  const after = async () => (repo as unknown as { pageBefore: (q: unknown, b: string) => Promise<unknown[]> }).pageBefore(query, bound);
  const win = async (f: () => Promise<unknown>) => {
    const t = cpu();
    for (let i = 0; i < 600; i++) await f();
    return (cpu() - t) / 600;
  };
  for (let i = 0; i < 3; i++) {
    await win(before);
    await win(after);
  }
  // Alternate which path goes first, so a drift in the machine's load within a pair evens out.
  const pair = async (beforeFirst: boolean): Promise<[number, number]> => {
    if (beforeFirst) {
      const a = await win(before);
      return [a, await win(after)];
    }
    const b = await win(after);
    return [await win(before), b];
  };
  const ratios: number[] = [];
  for (let i = 0; i < 10; i++) {
    const [a, b] = await pair(i % 2 === 1);
    ratios.push(b / a);
    console.log(`before ${a.toFixed(0)} µs CPU/page, after ${b.toFixed(0)} µs: after/before ${(b / a).toFixed(3)}`);
  }
  console.log(`after/before CPU per page: median ${[...ratios].sort((x, y) => x - y)[5].toFixed(3)} over 10 window pairs`);
  await ds.destroy();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
