import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EndUserPrincipal } from '../common/auth/principal';
import { Clock } from '../common/clock';
import { generateToken, sha256Hex } from '../common/crypto/tokens';
import { DomainError } from '../common/errors';
import { notFound } from '../common/common.errors';
import { isUuid } from '../common/ids';
import type { RequestMeta } from '../common/request-context';
import { reduceUserAgent } from '../common/user-agent';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { type EmittedEvents, type Tx, UnitOfWork } from '../database/unit-of-work';
import type { AuditFacts, EndUserSessionRecord, StatementRider } from '../events/domain-events';
import {
  BrowserSessionRow,
  LockedRefreshToken,
  NewRefreshToken,
  NewSession,
  SessionFilter,
  SessionsRepository,
} from './sessions.repository';
import { AccessTokenCodec } from './tokens/access-token.codec';
import { DeniedToken, sessionCacheTag, TokenDenylistService } from './tokens/token-denylist.service';
import { CredentialCache, type CachedCredential } from '../common/auth/credential-cache';
import { END_USER_ERRORS } from '../end-user-directory/end-users.errors';
import type { ViewOf } from '../api-docs/response-schema';
import type { EndUserSessionSchema } from './sessions.schemas';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  session_id: string;
}

export type SessionView = ViewOf<typeof EndUserSessionSchema>;

/** An api session's row as a caller that writes it in its own statement needs it (the code exchange). */
export interface ApplicationSessionRow {
  sessionId: string;
  ipAddress: string | null;
  userAgent: string | null;
  browserFamily: string;
  osFamily: string;
  expiresAt: Date;
  refresh: NewRefreshToken;
}

type SessionRef = Pick<EndUserSessionRecord, 'id' | 'workspaceId' | 'userId' | 'oauthClientId'> & { amr?: string[] };

/** A spent credential of a session (a refresh token, an application's authorization code) presented again. */
export interface ReusedCredential {
  workspaceId: string;
  sessionId: string;
  userId: string;
  oauthClientId: string | null;
}

/**
 * The audit facts of a session the system ended because one of its spent credentials came back:
 * someone else holds a copy, so neither copy may keep working (OAuth 2.1 §4.1.3 for a code,
 * decision 0301 for a refresh token).
 */
export function endedByReuse(reused: ReusedCredential, reason: string, message: string, request: RequestMeta): AuditFacts {
  return {
    workspaceId: reused.workspaceId,
    actor: { type: 'system', id: null },
    target: { type: 'EndUserSession', id: reused.sessionId },
    oauthClientId: reused.oauthClientId,
    request,
    message,
    metadata: { reason, user_id: reused.userId },
  };
}

const invalidRefresh = () => new DomainError(END_USER_ERRORS.invalid_token, 'Refresh token is invalid, expired or revoked');

/** Token pairs, refresh rotation with reuse detection, revocation (with denylist) and session listing. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly sessions: SessionsRepository,
    private readonly codec: AccessTokenCodec,
    private readonly denylist: TokenDenylistService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cache: CredentialCache,
  ) {}

  /** Sign an access token and draw a refresh token for a session; nothing is written yet. */
  async mintTokens(session: SessionRef, now: Date): Promise<{ pair: TokenPair; refresh: NewRefreshToken }> {
    const access = await this.codec.sign(
      {
        userId: session.userId,
        sessionId: session.id,
        workspaceId: session.workspaceId,
        oauthClientId: session.oauthClientId,
        amr: session.amr,
      },
      now,
    );
    const refreshToken = generateToken('rt_');
    return {
      pair: {
        access_token: access.token,
        refresh_token: refreshToken,
        token_type: 'Bearer',
        expires_in: this.codec.lifetimeSeconds,
        session_id: session.id,
      },
      refresh: {
        tokenHash: sha256Hex(refreshToken),
        accessJti: access.jti,
        accessExpiresAt: access.expiresAt,
        expiresAt: this.refreshExpiry(now),
      },
    };
  }

  /** Access + refresh token for an existing session, written in the caller's transaction. */
  async issueTokens(tx: Tx, session: SessionRef, now: Date): Promise<TokenPair> {
    const { pair, refresh } = await this.mintTokens(session, now);
    await this.sessions.insertRefreshToken(tx, session.workspaceId, session.id, refresh, now);
    return pair;
  }

  /**
   * A session to issue to an application by the OpenID provider's code exchange (kind 'api', the
   * person already signed in on the hosted login): its id, its first token pair and the row to
   * write, which the exchange writes itself in the statement that spends the code (decision 0917).
   * Its tokens are today's: the same rotation (decision 0301) and end-user endpoints.
   */
  async draftForApplication(
    owner: Omit<SessionRef, 'id'> & { amr: string[] },
    request: RequestMeta,
    now: Date,
  ): Promise<{ pair: TokenPair; accessExpiresAt: Date; session: ApplicationSessionRow }> {
    const id = randomUUID();
    const { pair, refresh } = await this.mintTokens({ ...owner, id }, now);
    const ua = request.userAgent ? request.userAgent.slice(0, 1000) : null;
    return {
      pair,
      accessExpiresAt: refresh.accessExpiresAt,
      session: {
        sessionId: id,
        ipAddress: request.ip || null,
        userAgent: ua,
        ...reduceUserAgent(ua),
        expiresAt: this.refreshExpiry(now),
        refresh,
      },
    };
  }

  refreshExpiry(now: Date): Date {
    return new Date(now.getTime() + this.config.REFRESH_TOKEN_TTL_SECONDS * 1000);
  }

  /**
   * Rotate: a refresh token works once. Presenting a spent one means it was copied, so the whole
   * session is revoked (both holders lose it) and the caller gets 401.
   */
  async refresh(refreshToken: string, request: RequestMeta): Promise<TokenPair> {
    if (typeof refreshToken !== 'string' || !refreshToken.startsWith('rt_')) throw invalidRefresh();
    const now = this.clock.now();
    const outcome = await this.uow.run(async (tx, events) => {
      const row = await this.sessions.lockRefreshToken(tx, sha256Hex(refreshToken));
      if (!row) return { error: invalidRefresh() };
      if (row.usedAt) return { error: invalidRefresh(), denied: await this.revokeReused(tx, events, row, request, now) };
      const live = !row.sessionRevokedAt && row.userActive && row.sessionExpiresAt > now && row.expiresAt > now;
      if (!live) return { error: invalidRefresh() };
      await this.sessions.markRefreshUsed(tx, row.workspaceId, row.id, now);
      await this.sessions.extend(tx, row.workspaceId, row.sessionId, now, this.refreshExpiry(now));
      const pair = await this.issueTokens(
        tx,
        { id: row.sessionId, workspaceId: row.workspaceId, userId: row.userId, oauthClientId: row.oauthClientId, amr: row.amr },
        now,
      );
      return { pair };
    });
    if (outcome.denied) await this.denylist.mirror(outcome.denied);
    if (outcome.error) throw outcome.error;
    return outcome.pair!;
  }

  /**
   * The write of a refresh whose token was read and checked by the caller (the OpenID provider's
   * grant, decision 0960): spends the token, extends the session and writes `next` in one statement,
   * with the riders of `runAsOneStatement`. False when the token could no longer be rotated: the
   * caller then answers with `refuseRefresh`.
   */
  rotateRefreshToken(
    on: Tx | null,
    spend: { workspaceId: string; tokenHash: string; sessionId: string },
    next: NewRefreshToken,
    now: Date,
    riders: readonly StatementRider[],
  ): Promise<boolean> {
    return this.sessions.rotateRefreshToken(on, spend, this.refreshExpiry(now), next, now, riders);
  }

  /**
   * A refresh token that cannot be rotated: when it was spent before, it was copied, and its session
   * is revoked (under the token's row lock, so this waits for a rotation still writing). Always
   * throws invalid_token.
   */
  async refuseRefresh(tokenHash: string, request: RequestMeta): Promise<never> {
    const now = this.clock.now();
    const denied = await this.uow.run(async (tx, events) => {
      const row = await this.sessions.lockRefreshToken(tx, tokenHash);
      return row?.usedAt ? this.revokeReused(tx, events, row, request, now) : [];
    });
    if (denied.length) await this.denylist.mirror(denied);
    throw invalidRefresh();
  }

  /** A spent refresh token presented again: its session ends (once), recorded as a logout by the system. */
  private async revokeReused(
    tx: Tx,
    events: EmittedEvents,
    row: LockedRefreshToken,
    request: RequestMeta,
    now: Date,
  ): Promise<DeniedToken[]> {
    if (row.sessionRevokedAt) return [];
    const denied = await this.revokeIn(tx, row.workspaceId, { sessionId: row.sessionId }, 'refresh_token_reuse', now);
    events.emit('logout', endedByReuse(row, 'refresh_token_reuse', 'Session revoked: a spent refresh token was presented again', request));
    return denied;
  }

  async logout(principal: EndUserPrincipal, request: RequestMeta): Promise<void> {
    await this.revokeSession(principal, principal.sessionId, request, 'logout');
  }

  /** DELETE /user/security/sessions/{id}/: only the caller's own sessions; anything else is 404. */
  async revokeSession(principal: EndUserPrincipal, sessionId: string, request: RequestMeta, reason = 'revoked_by_user'): Promise<void> {
    if (!isUuid(sessionId)) throw notFound('session');
    const now = this.clock.now();
    const denied = await this.uow.run(async (tx, events) => {
      if (!(await this.sessions.sessionOfUser(tx, principal.workspaceId, principal.userId, sessionId))) throw notFound('session');
      const tokens = await this.revokeIn(tx, principal.workspaceId, { sessionId }, reason, now);
      events.emit('logout', {
        workspaceId: principal.workspaceId,
        actor: { type: 'end_user', id: principal.userId },
        target: { type: 'EndUserSession', id: sessionId },
        oauthClientId: principal.oauthClientId,
        request,
        metadata: { reason, current: sessionId === principal.sessionId },
      });
      return tokens;
    });
    await this.denylist.mirror(denied);
  }

  /** Revoke in the caller's transaction and put the token ids on the denylist; mirror after commit. */
  async revokeIn(tx: Tx, workspaceId: string, filter: SessionFilter, reason: string, now: Date): Promise<DeniedToken[]> {
    const { tokens } = await this.sessions.revoke(tx, workspaceId, filter, reason, now);
    return this.denylist.deny(tx, workspaceId, tokens);
  }

  /**
   * A deactivated person (SCIM DELETE or active false): every session of theirs ends in the caller's
   * transaction, refresh and access tokens go on the denylist; mirror `denied` after commit.
   */
  async endAllOfUser(
    tx: Tx,
    workspaceId: string,
    userId: string,
    reason: string,
  ): Promise<{ sessionsEnded: number; denied: DeniedToken[] }> {
    const { sessionIds, tokens } = await this.sessions.revoke(tx, workspaceId, { userId }, reason, this.clock.now());
    return { sessionsEnded: sessionIds.length, denied: await this.denylist.deny(tx, workspaceId, tokens) };
  }

  /** Records a new session in the caller's transaction (the sign-in decides what it carries). */
  record(tx: Tx, workspaceId: string, session: NewSession): Promise<EndUserSessionRecord> {
    return this.sessions.insert(tx, workspaceId, session);
  }

  /** The live browser session whose cookie token hashes to tokenHash, or null. */
  browserSession(tokenHash: string): Promise<BrowserSessionRow | null> {
    return this.sessions.browserSession(tokenHash, this.clock.now());
  }

  mirrorDenied(tokens: DeniedToken[]): Promise<void> {
    return this.denylist.mirror(tokens);
  }

  /** A user's live sessions, most recently used first (the developer's directory shows them). */
  liveOf(workspaceId: string, userId: string) {
    return this.sessions.listLive(workspaceId, userId, this.clock.now());
  }

  async list(principal: EndUserPrincipal): Promise<SessionView[]> {
    const rows = await this.sessions.listLive(principal.workspaceId, principal.userId, this.clock.now());
    return rows.map((s) => ({
      id: s.id,
      ip_address: s.ipAddress,
      country: s.country,
      city: s.city,
      user_agent: s.userAgent,
      browser_family: s.browserFamily,
      os_family: s.osFamily,
      kind: s.kind,
      amr: s.amr,
      created_at: s.createdAt.toISOString(),
      last_seen_at: s.lastSeenAt.toISOString(),
      current: s.id === principal.sessionId,
    }));
  }

  /** Bearer access token -> principal, or null (expired, forged, denylisted, session revoked). */
  async authenticate(token: string): Promise<EndUserPrincipal | null> {
    return (await this.verified(token))?.principal ?? null;
  }

  /**
   * An access token's principal and what `read` answers for it (an application's grant, its person), from the
   * credential cache when it holds them (decision 0961): loaded as `authenticate` checks a token, kept under the
   * token's hash until the token expires (at most the cache's lifetime), and dropped on every instance when its
   * session is revoked (TokenDenylistService), before the revocation is answered.
   */
  async authenticateCached<V extends CachedCredential>(
    token: string,
    kind: V['kind'],
    read: (principal: EndUserPrincipal) => Promise<V | null>,
  ): Promise<V | null> {
    const loaded = await this.cache.resolve<V>(kind, `${kind}:${sha256Hex(token)}`, async () => {
      const found = await this.verified(token);
      const view = found ? await read(found.principal) : null;
      if (!found || !view) return undefined;
      return { principal: view, expiresAt: found.expiresAt, tags: [sessionCacheTag(found.principal.sessionId)] };
    });
    return loaded ?? null;
  }

  private async verified(token: string): Promise<{ principal: EndUserPrincipal; expiresAt: Date } | null> {
    const now = this.clock.now();
    const claims = await this.codec.verify(token, now);
    if (!claims || !isUuid(claims.workspaceId) || !isUuid(claims.sessionId) || !isUuid(claims.userId)) return null;
    if ((await this.denylist.deniedInCache(claims.jti)) === true) return null;
    if (!(await this.sessions.isLive(claims.workspaceId, claims, now))) return null;
    return {
      principal: {
        kind: 'end-user',
        userId: claims.userId,
        sessionId: claims.sessionId,
        workspaceId: claims.workspaceId,
        oauthClientId: claims.oauthClientId,
        jti: claims.jti,
      },
      expiresAt: claims.expiresAt,
    };
  }
}
