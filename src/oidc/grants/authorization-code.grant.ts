import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/tokens';
import type { RequestMeta } from '../../common/request-context';
import { UnitOfWork } from '../../database/unit-of-work';
import { endedByReuse, SessionsService } from '../../sessions/sessions.service';
import type { DeniedToken } from '../../sessions/tokens/token-denylist.service';
import { OAuthError } from '../../oauth/oauth.errors';
import { GrantHandler, GrantRequest, IssuedTokens, TokenGrant } from '../../oauth/token/grants';
import { ApplicationClientStore, MAX_CODE_CHARS } from '../application-client.store';
import { verifierMatches } from '../authorize/pkce';
import { AuthorizationCodeRow, OidcRepository } from '../oidc.repository';
import { AUTHORIZATION_CODE } from '../scopes';
import { ApplicationTokens } from './application-tokens';

/**
 * RFC 6749 §4.1.3 with PKCE (RFC 7636 §4.6; a code requested without it, decision 0930, takes no verifier): a code works once, for the client it was issued to,
 * with the redirect URI it was issued for and the verifier of its challenge. Presenting a spent
 * code again revokes the session its first exchange opened (OAuth 2.1 §4.1.3).
 *
 * Decision 0917: the code is read (with the client, by the token endpoint's lookup), checked here (client, redirect URI, PKCE in constant time), and
 * then spent in one statement that also opens the session and carries the oauth_token_issue audit
 * row; the statement spends only a code still unspent, so of two concurrent exchanges one wins and
 * the other is answered as a reuse.
 */
@Injectable()
@GrantHandler(AUTHORIZATION_CODE)
export class AuthorizationCodeGrant implements TokenGrant {
  constructor(
    private readonly store: ApplicationClientStore,
    private readonly repository: OidcRepository,
    private readonly sessions: SessionsService,
    private readonly tokens: ApplicationTokens,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async handle({ params, client, request }: GrantRequest): Promise<IssuedTokens> {
    const { code, redirect_uri: redirectUri, code_verifier: verifier } = params;
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    if (!redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required');
    const app = await this.store.applicationOf(client.client);
    if (!app) throw new OAuthError('invalid_client', 'client authentication failed');
    if (code.length > MAX_CODE_CHARS) throw invalidCode();
    const now = this.clock.now();
    const codeHash = sha256Hex(code);
    // Read with the client by the token endpoint's lookup, as a rule (one round trip).
    const read = this.store.codeReadWith(client.client, codeHash);
    const found = read === undefined ? await this.repository.code(codeHash) : read;
    // Another client's code is not spent by this attempt (RFC 6749 §4.1.3: it was not issued to it).
    if (!found || found.code.clientId !== app.id) throw invalidCode();
    const { code: row, user } = found;
    if (row.usedAt) return this.refuseReuse(row.codeHash, now, request);
    if (row.expiresAt <= now) throw invalidCode();
    if (row.redirectUri !== redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
    if (row.codeChallenge === null) {
      // RFC 9700 §4.8.2: a verifier for a code requested without a challenge is refused (a downgrade probe).
      if (verifier !== undefined) throw new OAuthError('invalid_grant', 'code_verifier sent for a code requested without PKCE');
    } else if (!verifier) {
      throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    } else if (!verifierMatches(verifier, row.codeChallenge)) {
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    }
    if (!user.isActive) {
      await this.repository.markCodeUsed(null, row.workspaceId, row.codeHash, now);
      throw invalidCode();
    }

    const { pair, accessExpiresAt, session } = await this.sessions.draftForApplication(
      { workspaceId: row.workspaceId, userId: row.userId, oauthClientId: app.id, amr: row.amr },
      request,
      now,
    );
    const issued = await this.tokens.issue(
      { client, request },
      AUTHORIZATION_CODE,
      { app, user, pair, scope: row.scope, authTime: row.authTime, nonce: row.nonce, amr: row.amr },
      { jti: session.refresh.accessJti, issuedAt: now, expiresAt: accessExpiresAt },
      (on, riders) => this.repository.exchangeCode(on, row, session, now, riders),
    );
    // Spent by a concurrent exchange since it was read (or expired, or its person deactivated): nothing was written.
    return issued ?? this.refuseReuse(row.codeHash, now, request);
  }

  /**
   * A spent code presented again: whoever holds it now, the tokens of its first exchange die (under
   * the code's row lock, so this waits for an exchange still writing). Always invalid_grant.
   */
  private async refuseReuse(codeHash: string, now: Date, request: RequestMeta): Promise<never> {
    const denied: DeniedToken[] = await this.uow.run(async (tx, events) => {
      const locked = await this.repository.lockCode(tx, codeHash);
      if (!locked) return [];
      const row: AuthorizationCodeRow = locked.code;
      if (!row.usedAt) {
        // Not spent after all: expired, or its person deactivated since; it must not work later either.
        await this.repository.markCodeUsed(tx, row.workspaceId, row.codeHash, now);
        return [];
      }
      if (!row.sessionId) return [];
      const tokens = await this.sessions.revokeIn(tx, row.workspaceId, { sessionId: row.sessionId }, 'authorization_code_reuse', now);
      if (tokens.length) {
        const reused = { workspaceId: row.workspaceId, sessionId: row.sessionId, userId: row.userId, oauthClientId: row.clientId };
        events.emit(
          'oauth_token_revoke',
          endedByReuse(reused, 'authorization_code_reuse', 'Tokens revoked: their authorization code was presented again', request),
        );
      }
      return tokens;
    });
    if (denied.length) await this.sessions.mirrorDenied(denied);
    throw invalidCode();
  }
}

const invalidCode = () => new OAuthError('invalid_grant', 'the authorization code is invalid, expired or already used');
