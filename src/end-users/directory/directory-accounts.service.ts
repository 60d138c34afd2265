import { Injectable } from '@nestjs/common';
import type { ViewOf } from '../../api-docs/response-schema';
import { Clock } from '../../common/clock';
import { notFound } from '../../common/common.errors';
import { DomainError } from '../../common/errors';
import { isUuid } from '../../common/ids';
import type { RequestMeta } from '../../common/request-context';
import { UnitOfWork } from '../../database/unit-of-work';
import type { AuditActor } from '../../events/domain-events';
import { END_USER_ERRORS } from '../../end-user-directory/end-users.errors';
import { MfaService, type MfaStatusView } from '../../second-factor/mfa.service';
import { SessionsService } from '../../sessions/sessions.service';
import { DirectoryAccount, DirectoryAccountsRepository, DirectoryPosition } from '../../end-user-directory/directory-accounts.repository';
import type { DirectorySessionSchema, DirectoryUserSchema } from './directory.schemas';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../common/keyset-cursor';

export type DirectoryUserView = ViewOf<typeof DirectoryUserSchema>;
export type DirectorySessionView = ViewOf<typeof DirectorySessionSchema>;

export interface DirectoryPageQuery {
  search?: string;
  cursor?: string;
  limit?: number;
}

export interface NewDirectoryUser {
  email: string;
  first_name?: string;
  last_name?: string;
}

export const toDirectoryUserView = (a: DirectoryAccount): DirectoryUserView => ({
  id: a.id,
  email: a.email,
  first_name: a.firstName,
  last_name: a.lastName,
  active: a.isActive,
  email_verified: a.emailVerified,
  has_password: a.hasPassword,
  application: a.application,
  created_at: a.createdAt.toISOString(),
});

/**
 * The developer's directory of a workspace's end users (docs/directory.md): the accounts with their
 * status, live sessions and second factors, and a directory account added by hand for developers who
 * do not use SCIM. The workspace has been checked by the route's guard (membership).
 */
@Injectable()
export class DirectoryAccountsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly accounts: DirectoryAccountsRepository,
    private readonly sessions: SessionsService,
    private readonly mfa: MfaService,
    private readonly clock: Clock,
  ) {}

  async page(workspaceId: string, query: DirectoryPageQuery): Promise<{ results: DirectoryUserView[]; next_cursor: string | null }> {
    const limit = query.limit ?? 50;
    const cursor = query.cursor ? decodeKeysetCursor(query.cursor) : null;
    const after: DirectoryPosition | null = cursor && { email: cursor.key, id: cursor.id };
    const rows = await this.accounts.page(workspaceId, query.search?.trim() || undefined, after, limit + 1);
    const results = rows.slice(0, limit);
    const last = results[results.length - 1];
    return {
      results: results.map(toDirectoryUserView),
      next_cursor: rows.length > limit && last ? encodeKeysetCursor(last.email.toLowerCase(), last.id) : null,
    };
  }

  /** One account with its live sessions and second factors; 404 when the workspace has no such user. */
  async person(
    workspaceId: string,
    userId: string,
  ): Promise<{ user: DirectoryUserView; sessions: DirectorySessionView[]; factors: MfaStatusView }> {
    const account = isUuid(userId) ? await this.accounts.byId(workspaceId, userId) : undefined;
    if (!account) throw notFound('user');
    const [sessions, factors] = await Promise.all([this.sessions.liveOf(workspaceId, userId), this.mfa.factorsOf(workspaceId, userId)]);
    return {
      user: toDirectoryUserView(account),
      sessions: sessions.map((s) => ({
        id: s.id,
        kind: s.kind,
        ip_address: s.ipAddress,
        country: s.country,
        user_agent: s.userAgent,
        browser_family: s.browserFamily,
        os_family: s.osFamily,
        amr: s.amr,
        created_at: s.createdAt.toISOString(),
        last_seen_at: s.lastSeenAt.toISOString(),
        expires_at: s.expiresAt.toISOString(),
      })),
      factors,
    };
  }

  /**
   * Adds a directory account (no application, no password): the person sets a password through the
   * hosted login's reset flow (decision 0307) and the emailed code verifies the address. Audited as
   * user_create; 409 email_taken when the directory already has the address.
   */
  async add(workspaceId: string, actor: AuditActor, input: NewDirectoryUser, request: RequestMeta): Promise<DirectoryUserView> {
    const now = this.clock.now();
    const account = await this.uow.run(async (tx, events) => {
      const created = await this.accounts.insert(tx, workspaceId, {
        email: input.email,
        firstName: input.first_name ?? '',
        lastName: input.last_name ?? '',
        now,
      });
      if (!created) throw new DomainError(END_USER_ERRORS.email_taken, 'The directory already has a user with this email');
      events.emit('user_create', {
        workspaceId,
        actor,
        target: { type: 'EndUser', id: created.id, email: created.email },
        request,
        metadata: { email: created.email, first_name: created.firstName, last_name: created.lastName },
      });
      return created;
    });
    return toDirectoryUserView(account);
  }
}
