/**
 * An application, a person and its seeded single-use credentials in one build of the service, for the OpenID
 * provider's benchmarks (bench/oidc-peers.ts, bench/ab.ts's oidc-* scenarios): created through the API, the
 * credentials inserted as the code exchange and the authorization endpoint would have stored them (hashes only).
 */
import { randomUUID } from 'node:crypto';
import type { Client, Pool } from 'pg';
import { ApiClient } from './api-client';
import { createDeveloper, createWorkspace } from './service';

export const REDIRECT_URI = 'https://app.bench.example/callback';

export interface OidcTenant {
  workspaceId: string;
  clientId: string;
  clientRowId: string;
  clientSecret: string;
  userId: string;
}

type Db = Pick<Client | Pool, 'query'>;

export async function provisionOidc(baseUrl: string, db: Db): Promise<OidcTenant> {
  const api = new ApiClient(baseUrl);
  const dev = await createDeveloper(api);
  const workspace = await createWorkspace(api, dev, 'oidc peers bench');
  const client = await api.post<{ id: string; client_id: string; client_secret: string }>('/developer/oauth/clients/', {
    body: { workspace_id: workspace.id, name: 'Bench App', redirect_uris: [REDIRECT_URI] },
    headers: dev.authHeaders,
  });
  const clientId = String(client.body.client_id);
  const user = await api.post<{ id: string }>('/e/v1/auth/register/', {
    body: {
      client_id: clientId,
      email: `person-${randomUUID().slice(0, 8)}@bench.example`,
      password: 'a-long-bench-password',
      first_name: 'Ada',
    },
  });
  await db.query(`UPDATE end_users SET email_verified = true, last_name = 'Bench' WHERE id = $1`, [String(user.body.id)]);
  return {
    workspaceId: workspace.id,
    clientId,
    clientRowId: String(client.body.id),
    clientSecret: String(client.body.client_secret),
    userId: String(user.body.id),
  };
}

/**
 * `n` application sessions as the code exchange would have opened them, each with its refresh token
 * `rt_bench-<i>` (hash only), and `n` codes `bench-code-<i>` for one PKCE pair.
 */
export async function seedOidcCredentials(
  db: Db,
  t: OidcTenant,
  n: number,
  challenge: string,
): Promise<{ refresh: string[]; codes: string[] }> {
  await db.query(
    `INSERT INTO end_user_sessions (id, workspace_id, user_id, oauth_client_id, kind, ip_address, user_agent, created_at, last_seen_at, expires_at, amr)
     SELECT md5('bench-session-' || g)::uuid, $1, $2, $3, 'api', '127.0.0.1', 'bench', now(), now(), now() + interval '30 days', '{pwd}'
       FROM generate_series(0, $4 - 1) g`,
    [t.workspaceId, t.userId, t.clientRowId, n],
  );
  await db.query(
    `INSERT INTO end_user_refresh_tokens (workspace_id, session_id, token_hash, access_jti, access_expires_at, expires_at, created_at)
     SELECT $1, md5('bench-session-' || g)::uuid, encode(sha256(convert_to('rt_bench-' || g, 'UTF8')), 'hex'), gen_random_uuid(),
            now() + interval '10 minutes', now() + interval '30 days', now()
       FROM generate_series(0, $2 - 1) g`,
    [t.workspaceId, n],
  );
  await db.query(
    `INSERT INTO oauth_app_sessions (session_id, workspace_id, client_id, user_id, scope, auth_time)
     SELECT md5('bench-session-' || g)::uuid, $1, $2, $3, 'openid email profile', now() FROM generate_series(0, $4 - 1) g`,
    [t.workspaceId, t.clientRowId, t.userId, n],
  );
  await db.query(
    `INSERT INTO oauth_authorization_codes (code_hash, workspace_id, client_id, user_id, redirect_uri, scope, nonce, code_challenge, auth_time, amr, expires_at)
     SELECT encode(sha256(convert_to('bench-code-' || g, 'UTF8')), 'hex'), $1, $2, $3, $4, 'openid email profile', 'n', $5, now(), '{pwd}', now() + interval '1 day'
       FROM generate_series(0, $6 - 1) g`,
    [t.workspaceId, t.clientRowId, t.userId, REDIRECT_URI, challenge, n],
  );
  await db.query('VACUUM (ANALYZE) end_user_sessions, end_user_refresh_tokens, oauth_app_sessions, oauth_authorization_codes');
  const range = (prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
  return { refresh: range('rt_bench-'), codes: range('bench-code-') };
}

/** Basic client authentication and a form body, as a confidential application sends them. */
export function formHeaders(clientId: string, secret: string): Record<string, string> {
  return {
    'content-type': 'application/x-www-form-urlencoded',
    authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
  };
}

/** Access tokens from the build's own token endpoint, each the exchange of one of `codes`. */
export async function accessTokens(baseUrl: string, t: OidcTenant, codes: string[], verifier: string): Promise<string[]> {
  const tokens: string[] = [];
  for (const code of codes) {
    const res = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: formHeaders(t.clientId, t.clientSecret),
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }),
    });
    if (!res.ok) throw new Error(`the exchange answered ${res.status}: ${await res.text()}`);
    tokens.push(((await res.json()) as { access_token: string }).access_token);
  }
  return tokens;
}
