/**
 * The 1,000,000 audit-shaped rows the audit scenarios read, and the deep-page cursors they
 * use, shared with the `page-select` baseline so both read the same data the same way.
 * Event g (1…count) is g ms older than `newestMs`, so created_at is unique per workspace.
 */
export const AUDIT_EVENTS = 1_000_000;

export const AUDIT_SEED_COLUMNS = `(workspace_id, event_type, severity, actor_type, actor_id, actor_email,
  target_type, target_id, oauth_client_id, ip_address, user_agent, request_id, message, metadata, created_at)`;

/** Parameters: $1 workspace id, $2 newest created_at in epoch ms, $3 row count. */
export const AUDIT_SEED_SELECT = `SELECT $1::uuid,
    (ARRAY['login_success','login_failure','scim_user_create','scim_user_update','workspace_member_add'])[1 + g % 5],
    (ARRAY['info','warn','info','info','warn'])[1 + g % 5],
    (ARRAY['end_user','anonymous','api_token','api_token','developer'])[1 + g % 5],
    md5((g % 5000)::text)::uuid::text,
    'user' || (g % 5000) || '@example.test',
    'EndUser', md5(g::text)::uuid::text, NULL,
    '10.' || (g % 250) || '.' || (g % 199) || '.' || (g % 97),
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    md5('req' || g),
    'bench event ' || g,
    jsonb_build_object('seq', g, 'source', 'bench'),
    to_timestamp($2::double precision / 1000) - g * interval '1 millisecond'
  FROM generate_series(1, $3::int) AS g`;

const DEEP_CURSORS = 20;

/** Cursors spread over the older half (500,000 to 990,000 events back), so the load does not re-read one cached page. */
export function deepPageCursors(newestMs: number): string[] {
  const cursors: string[] = [];
  for (let i = 0; i < DEEP_CURSORS; i++) {
    const eventsBack = 500_000 + Math.round((i * 490_000) / (DEEP_CURSORS - 1));
    cursors.push(new Date(newestMs - eventsBack).toISOString());
  }
  return cursors;
}
