import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { generateToken, sha256Hex } from '../common/crypto/tokens';
import { notFound } from '../common/errors';
import { isUuid } from '../common/ids';
import { RequestMeta } from '../common/request-context';
import { AuditEventType } from '../events/audit-catalog';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { CreateOAuthClientDto, UpdateOAuthClientDto } from './dto/oauth-client.dto';

interface ClientRow {
  id: string;
  client_id: string;
  name: string;
  workspace_id: string;
  redirect_uris: string[];
  created_at: Date;
}

const COLUMNS = 'id, client_id, name, workspace_id, redirect_uris, created_at';
const toView = (r: ClientRow) => ({ ...r, created_at: new Date(r.created_at).toISOString() });

/** The applications end users belong to. Secrets are shown once and stored as SHA-256. */
@Injectable()
export class OAuthClientsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly workspaces: WorkspacesService,
    private readonly audit: AuditService,
  ) {}

  async create(p: DeveloperPrincipal, dto: CreateOAuthClientDto, request: RequestMeta) {
    return this.dataSource.transaction(async (manager) => {
      await this.workspaces.assertMember(p.developerId, dto.workspace_id, manager);
      const secret = generateToken('cs_');
      const [row] = (await manager.query(
        `INSERT INTO oauth_clients (workspace_id, client_id, client_secret_hash, name, redirect_uris)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [dto.workspace_id, `cli_${randomBytes(12).toString('hex')}`, sha256Hex(secret), dto.name, JSON.stringify(dto.redirect_uris ?? [])],
      )) as ClientRow[];
      await this.record(manager, 'oauth_client_create', p, row, request);
      return { ...toView(row), client_secret: secret };
    });
  }

  async list(p: DeveloperPrincipal, workspaceId: string) {
    await this.workspaces.assertMember(p.developerId, workspaceId);
    const rows = (await this.dataSource.query(`SELECT ${COLUMNS} FROM oauth_clients WHERE workspace_id = $1 ORDER BY created_at, id`, [
      workspaceId,
    ])) as ClientRow[];
    return rows.map(toView);
  }

  async get(p: DeveloperPrincipal, id: string) {
    return toView(await this.load(this.dataSource.manager, p, id));
  }

  async update(p: DeveloperPrincipal, id: string, dto: UpdateOAuthClientDto, request: RequestMeta) {
    return this.dataSource.transaction(async (manager) => {
      await this.load(manager, p, id);
      const [rows] = (await manager.query(
        `UPDATE oauth_clients SET name = COALESCE($2, name), redirect_uris = COALESCE($3, redirect_uris), updated_at = now()
          WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, dto.name ?? null, dto.redirect_uris ? JSON.stringify(dto.redirect_uris) : null],
      )) as [ClientRow[], number];
      await this.record(manager, 'oauth_client_update', p, rows[0], request, { fields: Object.keys(dto) });
      return toView(rows[0]);
    });
  }

  async remove(p: DeveloperPrincipal, id: string, request: RequestMeta): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const row = await this.load(manager, p, id);
      await manager.query(`DELETE FROM oauth_clients WHERE id = $1`, [id]);
      await this.record(manager, 'oauth_client_delete', p, row, request);
    });
  }

  async rotateSecret(p: DeveloperPrincipal, id: string, request: RequestMeta) {
    return this.dataSource.transaction(async (manager) => {
      const row = await this.load(manager, p, id);
      const secret = generateToken('cs_');
      await manager.query(`UPDATE oauth_clients SET client_secret_hash = $2, updated_at = now() WHERE id = $1`, [id, sha256Hex(secret)]);
      await this.record(manager, 'oauth_client_secret_reset', p, row, request);
      return { ...toView(row), client_secret: secret };
    });
  }

  /** The client, if the developer is a member of its workspace; 404 otherwise (never 403 across tenants). */
  private async load(manager: EntityManager, p: DeveloperPrincipal, id: string): Promise<ClientRow> {
    if (!isUuid(id)) throw notFound('OAuth client');
    const [row] = (await manager.query(
      `SELECT ${COLUMNS.split(', ')
        .map((c) => `c.${c}`)
        .join(', ')} FROM oauth_clients c
         JOIN workspace_members m ON m.workspace_id = c.workspace_id AND m.developer_id = $2
        WHERE c.id = $1`,
      [id, p.developerId],
    )) as ClientRow[];
    if (!row) throw notFound('OAuth client');
    return row;
  }

  private record(
    manager: EntityManager,
    eventType: AuditEventType,
    p: DeveloperPrincipal,
    row: ClientRow,
    request: RequestMeta,
    metadata?: Record<string, unknown>,
  ) {
    return this.audit.record(manager, {
      eventType,
      workspaceId: row.workspace_id,
      request,
      metadata: { name: row.name, ...metadata },
      actor: { type: 'developer', id: p.developerId, email: p.email },
      target: { type: 'OAuthClient', id: row.id },
      oauthClientId: row.id,
    });
  }
}
