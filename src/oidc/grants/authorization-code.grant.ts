import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/tokens';
import type { RequestMeta } from '../../common/request-context';
import { EmittedEvents, Tx, UnitOfWork } from '../../database/unit-of-work';
import { SessionsService, type TokenPair } from '../../end-users/sessions.service';
import type { DeniedToken } from '../../end-users/tokens/token-denylist.service';
import { OAuthError } from '../../oauth/oauth.errors';
import { GrantHandler, GrantRegistry, GrantRequest, IssuedTokens } from '../../oauth/token/grants';
import { ApplicationClientStore } from '../application-client.store';
import { verifierMatches } from '../authorize/pkce';
import { AuthorizationCodeRow, ClaimsUser, OidcRepository } from '../oidc.repository';
import { AUTHORIZATION_CODE } from '../scopes';
import { ApplicationTokens } from './application-tokens';

const MAX_CODE_CHARS = 128;

type Exchange = { error: OAuthError; denied?: DeniedToken[] } | { code: AuthorizationCodeRow; user: ClaimsUser; pair: TokenPair };

/**
 * RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.6): a code works once, for the client it was issued to,
 * with the redirect URI it was issued for and the verifier of its challenge. Presenting a spent
 * code again revokes the session its first exchange opened (OAuth 2.1 §4.1.3), in the same
 * transaction that refuses it.
 */
@Injectable()
export class AuthorizationCodeGrant implements GrantHandler, OnModuleInit {
  readonly grantType = AUTHORIZATION_CODE;
  readonly clientAuthentication = 'required';

  constructor(
    private readonly registry: GrantRegistry,
    private readonly store: ApplicationClientStore,
    private readonly repository: OidcRepository,
    private readonly sessions: SessionsService,
    private readonly tokens: ApplicationTokens,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  async handle({ params, client, request }: GrantRequest): Promise<IssuedTokens> {
    const { code, redirect_uri: redirectUri, code_verifier: verifier } = params;
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    if (!redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required');
    if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    const app = await this.store.applicationOf(client.client);
    if (!app) throw new OAuthError('invalid_client', 'client authentication failed');
    if (code.length > MAX_CODE_CHARS) throw invalidCode();
    const now = this.clock.now();
    const outcome: Exchange = await this.uow.run(async (tx, events) => {
      const locked = await this.repository.lockCode(tx, sha256Hex(code));
      // Another client's code is not spent by this attempt (RFC 6749 §4.1.3: it was not issued to it).
      if (!locked || locked.code.clientId !== app.id) return { error: invalidCode() };
      const { code: row, user } = locked;
      if (row.usedAt) return this.reused(tx, events, row, now, request);
      if (row.expiresAt <= now) return { error: invalidCode() };
      if (row.redirectUri !== redirectUri) {
        return { error: new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request') };
      }
      if (!verifierMatches(verifier, row.codeChallenge)) {
        return { error: new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge') };
      }
      if (!user.isActive) {
        await this.repository.markCodeUsed(tx, row.workspaceId, row.codeHash, now, null);
        return { error: invalidCode() };
      }
      const opened = await this.sessions.openForApplication(
        tx,
        { workspaceId: row.workspaceId, userId: row.userId, oauthClientId: app.id, amr: row.amr },
        request,
        now,
      );
      await this.repository.spendCode(tx, row, { sessionId: opened.pair.session_id, workspaceId: row.workspaceId, clientId: app.id }, now);
      return { code: row, user, pair: opened.pair };
    });
    if ('error' in outcome) {
      if (outcome.denied) await this.sessions.mirrorDenied(outcome.denied);
      throw outcome.error;
    }
    return this.tokens.respond({
      client,
      app,
      user: outcome.user,
      pair: outcome.pair,
      scope: outcome.code.scope,
      authTime: outcome.code.authTime,
      nonce: outcome.code.nonce,
      grantType: this.grantType,
    });
  }

  /** A spent code presented again: whoever holds it now, the tokens of its first exchange die. */
  private async reused(tx: Tx, events: EmittedEvents, row: AuthorizationCodeRow, now: Date, request: RequestMeta): Promise<Exchange> {
    if (!row.sessionId) return { error: invalidCode() };
    const denied = await this.sessions.revokeIn(tx, row.workspaceId, { sessionId: row.sessionId }, 'authorization_code_reuse', now);
    if (denied.length) {
      events.emit('oauth_token_revoke', {
        workspaceId: row.workspaceId,
        actor: { type: 'system', id: null },
        target: { type: 'EndUserSession', id: row.sessionId },
        oauthClientId: row.clientId,
        request,
        message: 'Tokens revoked: their authorization code was presented again',
        metadata: { reason: 'authorization_code_reuse', user_id: row.userId },
      });
    }
    return { error: invalidCode(), denied };
  }
}

const invalidCode = () => new OAuthError('invalid_grant', 'the authorization code is invalid, expired or already used');
