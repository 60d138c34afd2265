import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { CredentialCache, notifyCredentialRevoked } from '../../common/auth/credential-cache';
import type { DeveloperPrincipal, ScimPrincipal } from '../../common/auth/principal';
import { generateToken, sha256Hex } from '../../common/crypto/tokens';
import { DomainError, notFound } from '../../common/errors';
import { isUuid } from '../../common/ids';
import { RequestMeta } from '../../common/request-context';
import { preparedQuery } from '../../database/prepared-query';
import { WorkspacesService } from '../../workspaces/workspaces.service';
import { CreateScimTokenDto } from './scim-token.dto';

interface TokenRow {
  id: string;
  workspace_id: string;
  label: string;
  expires_at: Date | null;
  is_active: boolean;
  revoked_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, workspace_id, label, expires_at, is_active, revoked_at, created_at';
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const toView = (r: TokenRow) => ({
  id: r.id,
  workspace_id: r.workspace_id,
  label: r.label,
  expires_at: iso(r.expires_at),
  is_active: r.is_active,
  revoked_at: iso(r.revoked_at),
  created_at: iso(r.created_at),
});

/** SCIM bearer tokens: `scim_` + 40 random bytes, shown once, SHA-256 at rest, one workspace each. */
@Injectable()
export class ScimTokensService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly workspaces: WorkspacesService,
    private readonly audit: AuditService,
    private readonly cache: CredentialCache,
  ) {}

  async mint(p: DeveloperPrincipal, dto: CreateScimTokenDto, request: RequestMeta) {
    if (dto.expires_at && Date.parse(dto.expires_at) <= Date.now()) {
      throw new DomainError('validation_failed', 'expires_at must be in the future', {
        details: { expires_at: ['must be in the future'] },
      });
    }
    return this.dataSource.transaction(async (manager) => {
      await this.workspaces.assertMember(p.developerId, dto.workspace_id, manager);
      const token = generateToken('scim_');
      const [row] = (await manager.query(
        `INSERT INTO scim_tokens (workspace_id, label, token_hash, expires_at, created_by)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [dto.workspace_id, dto.label, sha256Hex(token), dto.expires_at ?? null, p.developerId],
      )) as TokenRow[];
      await this.record(manager, 'scim_token_create', p, row, request);
      return { ...toView(row), token };
    });
  }

  async list(p: DeveloperPrincipal, workspaceId: string) {
    await this.workspaces.assertMember(p.developerId, workspaceId);
    const rows = (await this.dataSource.query(`SELECT ${COLUMNS} FROM scim_tokens WHERE workspace_id = $1 ORDER BY created_at, id`, [
      workspaceId,
    ])) as TokenRow[];
    return rows.map(toView);
  }

  /** Idempotent: revoking a revoked token returns its original revoked_at and records nothing new. */
  async revoke(p: DeveloperPrincipal, id: string, request: RequestMeta) {
    if (!isUuid(id)) throw notFound('SCIM token');
    const { view, hash } = await this.dataSource.transaction(async (manager) => {
      const [row] = (await manager.query(`SELECT ${COLUMNS}, token_hash FROM scim_tokens WHERE id = $1 FOR UPDATE`, [id])) as (TokenRow & {
        token_hash: string;
      })[];
      if (!row) throw notFound('SCIM token');
      await this.workspaces.assertMember(p.developerId, row.workspace_id, manager);
      if (!row.is_active) return { view: { id: row.id, is_active: false, revoked_at: iso(row.revoked_at) }, hash: row.token_hash };
      const [[updated]] = (await manager.query(
        `UPDATE scim_tokens SET is_active = false, revoked_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
        [id],
      )) as [TokenRow[], number];
      // Delivered at commit to every instance's token cache.
      await notifyCredentialRevoked(manager, row.token_hash);
      await this.record(manager, 'scim_token_revoke', p, updated, request);
      return { view: { id: updated.id, is_active: false, revoked_at: iso(updated.revoked_at) }, hash: row.token_hash };
    });
    // This instance evicts synchronously, after commit, before answering.
    this.cache.evict(hash);
    return view;
  }

  /**
   * One indexed read by hash, or a hit in the token cache, which every revocation
   * evicts on every instance before the next call (see CredentialCache).
   */
  async authenticate(token: string): Promise<ScimPrincipal | undefined> {
    if (!token.startsWith('scim_') || token.length > 200) return undefined;
    const hash = sha256Hex(token);
    return this.cache.resolve<ScimPrincipal>('scim', hash, async () => {
      const [row] = await preparedQuery<{ id: string; workspace_id: string; expires_at: Date | null }>(
        this.dataSource,
        `SELECT id, workspace_id, expires_at FROM scim_tokens
          WHERE token_hash = $1 AND is_active AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
        [hash],
      );
      return row && { principal: { kind: 'scim', tokenId: row.id, workspaceId: row.workspace_id }, expiresAt: row.expires_at };
    });
  }

  private record(
    manager: EntityManager,
    eventType: 'scim_token_create' | 'scim_token_revoke',
    p: DeveloperPrincipal,
    row: TokenRow,
    request: RequestMeta,
  ) {
    return this.audit.record(manager, {
      eventType,
      workspaceId: row.workspace_id,
      actor: { type: 'developer', id: p.developerId, email: p.email },
      target: { type: 'ScimToken', id: row.id },
      request,
      metadata: { label: row.label, expires_at: iso(row.expires_at) },
    });
  }
}
