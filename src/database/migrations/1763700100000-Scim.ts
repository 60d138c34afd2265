import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SCIM tokens, groups and memberships. SCIM users are rows of end_users with no
 * OAuth client; their lookups use the spine's end_users_identity_key
 * (workspace_id, COALESCE(oauth_client_id, nil), lower(email)).
 */
export class Scim1763700100000 implements MigrationInterface {
  name = 'Scim1763700100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE scim_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        label text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz,
        is_active boolean NOT NULL DEFAULT true,
        revoked_at timestamptz,
        created_by uuid REFERENCES developers(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX scim_tokens_workspace_idx ON scim_tokens (workspace_id, created_at)`);
    await q.query(`
      CREATE TABLE scim_groups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        display_name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // displayName is unique per workspace, case-insensitively; the index also serves displayName eq filters.
    await q.query(`CREATE UNIQUE INDEX scim_groups_name_key ON scim_groups (workspace_id, lower(display_name))`);
    await q.query(`CREATE INDEX scim_groups_workspace_created_idx ON scim_groups (workspace_id, created_at, id)`);
    await q.query(`
      CREATE TABLE scim_group_members (
        group_id uuid NOT NULL REFERENCES scim_groups(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES end_users(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        -- Join order (members list in the order they were added); a timestamp can tie within one INSERT.
        seq bigint GENERATED ALWAYS AS IDENTITY,
        PRIMARY KEY (group_id, user_id)
      )`);
    // DELETE /Users/{id} removes every membership of the user.
    await q.query(`CREATE INDEX scim_group_members_user_idx ON scim_group_members (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS scim_group_members, scim_groups, scim_tokens`);
  }
}
