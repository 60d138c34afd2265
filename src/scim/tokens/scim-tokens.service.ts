import { Injectable } from '@nestjs/common';
import { CredentialCache } from '../../common/auth/credential-cache';
import { Clock } from '../../common/clock';
import type { DeveloperPrincipal, ScimPrincipal } from '../../common/auth/principal';
import { generateToken, sha256Hex } from '../../common/crypto/tokens';
import { DomainError } from '../../common/errors';
import { isUuid } from '../../common/ids';
import { RequestMeta } from '../../common/request-context';
import { UnitOfWork } from '../../database/unit-of-work';
import { type AuditFacts, byDeveloper } from '../../events/domain-events';
import { WorkspaceMembership } from '../../workspaces/workspace-membership';
import type { WorkspaceScope } from '../../workspaces/workspace-scoped';
import { ScimToken } from './entities/scim-token.entity';
import { CreateScimTokenDto } from './scim-token.dto';
import { ScimTokensRepository } from './scim-tokens.repository';
import { COMMON_ERRORS, notFound } from '../../common/common.errors';
import type { ViewOf } from '../../api-docs/response-schema';
import type { ScimTokenSchema } from './scim-tokens.schemas';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const toView = (t: ScimToken): ViewOf<typeof ScimTokenSchema> => ({
  id: t.id,
  workspace_id: t.workspaceId,
  label: t.label,
  expires_at: iso(t.expiresAt),
  is_active: t.isActive,
  revoked_at: iso(t.revokedAt),
  created_at: new Date(t.createdAt).toISOString(),
});

/** SCIM bearer tokens: `scim_` + 40 random bytes, shown once, SHA-256 at rest, one workspace each. */
@Injectable()
export class ScimTokensService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly tokens: ScimTokensRepository,
    private readonly membership: WorkspaceMembership,
    private readonly cache: CredentialCache,
    private readonly clock: Clock,
  ) {}

  async mint({ workspaceId, developer: p }: WorkspaceScope, dto: CreateScimTokenDto, request: RequestMeta) {
    if (dto.expires_at && Date.parse(dto.expires_at) <= this.clock.now().getTime()) {
      throw new DomainError(COMMON_ERRORS.validation_failed, 'expires_at must be in the future', {
        details: { expires_at: ['must be in the future'] },
      });
    }
    return this.uow.run(async (tx, events) => {
      const token = generateToken('scim_');
      const row = await this.tokens.insert(tx, workspaceId, {
        label: dto.label,
        tokenHash: sha256Hex(token),
        expiresAt: dto.expires_at ? new Date(dto.expires_at) : null,
        createdBy: p.developerId,
      });
      events.emit('scim_token_create', auditFacts(p, row, request));
      return { ...toView(row), token };
    });
  }

  async list({ workspaceId }: WorkspaceScope) {
    return (await this.tokens.list(workspaceId)).map(toView);
  }

  /** Idempotent: revoking a revoked token returns its original revoked_at and records nothing new. */
  async revoke(p: DeveloperPrincipal, id: string, request: RequestMeta) {
    if (!isUuid(id)) throw notFound('SCIM token');
    return this.uow.run(async (tx, events) => {
      const row = await this.tokens.lockById(tx, id);
      if (!row) throw notFound('SCIM token');
      // The token names its workspace: the caller must be a member of it (the same 404 as for a foreign workspace).
      if (!(await this.membership.roleOf(p.developerId, row.workspaceId, tx))) throw notFound('workspace');
      // This instance evicts after commit, before answering (the others on NOTIFY).
      events.afterCommit('evict the revoked SCIM token', () => this.cache.evict(row.tokenHash));
      if (!row.isActive) return { id: row.id, is_active: false, revoked_at: iso(row.revokedAt) };
      const revokedAt = await this.tokens.markRevoked(tx, row.workspaceId, id);
      // Delivered at commit to every instance's token cache; answered once every instance evicted it.
      const notice = await this.tokens.notifyRevoked(tx, row.tokenHash);
      events.afterCommit('evict the revoked SCIM token everywhere', () => this.cache.evictEverywhere(notice));
      events.emit('scim_token_revoke', auditFacts(p, row, request));
      return { id: row.id, is_active: false, revoked_at: iso(revokedAt) };
    });
  }

  /**
   * One indexed read by hash, or a hit in the token cache, which every revocation
   * evicts on every instance before the next call (see CredentialCache).
   */
  async authenticate(token: string): Promise<ScimPrincipal | undefined> {
    if (!token.startsWith('scim_') || token.length > 200) return undefined;
    const hash = sha256Hex(token);
    return this.cache.resolve<ScimPrincipal>('scim', hash, async () => {
      const grant = await this.tokens.findLiveByHash(hash, this.clock.now());
      return (
        grant && {
          principal: { kind: 'scim', tokenId: grant.id, workspaceId: grant.workspaceId, oauthClientId: null, label: grant.label },
          expiresAt: grant.expiresAt,
        }
      );
    });
  }
}

function auditFacts(p: DeveloperPrincipal, token: ScimToken, request: RequestMeta): AuditFacts {
  return {
    ...byDeveloper(p, token.workspaceId, { type: 'ScimToken', id: token.id }, request),
    metadata: { label: token.label, expires_at: iso(token.expiresAt) },
  };
}
