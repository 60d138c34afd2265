import { Injectable } from '@nestjs/common';
import type { RequestMeta } from '../../common/request-context';
import { DomainEventBus } from '../../events/domain-event-bus';
import type { AuthenticatedClient } from '../clients/registered-client';
import { OAuthError } from '../oauth.errors';
import { ClientAuthenticator } from './client-authenticator';
import { GrantRegistry, IssuedTokens } from './grants';
import { tokenIssueEvent } from './token-issue-event';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  [extra: string]: string | number;
}

const MAX_PARAM_CHARS = 16 * 1024;

/**
 * POST /oauth/token (RFC 6749 §3.2): checks the form, authenticates the client, hands the
 * request to the handler of its grant_type, answers the token response and records
 * `oauth_token_issue`.
 */
@Injectable()
export class TokenEndpointService {
  constructor(
    private readonly grants: GrantRegistry,
    private readonly authenticator: ClientAuthenticator,
    private readonly bus: DomainEventBus,
  ) {}

  async token(form: unknown, isForm: boolean, authorization: string | undefined, request: RequestMeta): Promise<TokenResponse> {
    if (!isForm) throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
    const params = singleValued(form);
    const grantType = params.grant_type;
    if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
    const grant = this.grants.get(grantType);
    if (!grant) throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
    const client = await this.authenticator.authenticate(authorization, params);
    if (grant.clientAuthentication === 'required' && client.method === 'none' && !client.client.authMethods.includes('none')) {
      throw new OAuthError('invalid_client', 'client authentication is required');
    }
    if (!client.client.grantTypes.includes(grantType)) {
      throw new OAuthError('unauthorized_client', `the client may not use grant_type ${grantType}`);
    }
    const issued = await grant.handler.handle({ params, client, request });
    await this.recordIssue(client, grantType, issued, request);
    return {
      ...issued.extra,
      access_token: issued.accessToken,
      token_type: 'Bearer',
      expires_in: Math.round((issued.claims.expiresAt.getTime() - issued.claims.issuedAt.getTime()) / 1000),
      scope: issued.claims.scope,
    };
  }

  /** Issuing changes no row, so the audit row is written on its own (with retries), like a sign-in. */
  private async recordIssue(client: AuthenticatedClient, grantType: string, issued: IssuedTokens, request: RequestMeta): Promise<void> {
    if (issued.recorded) return;
    await this.bus.publish('oauth_token_issue', tokenIssueEvent(client, grantType, issued, request));
  }
}

/** RFC 6749 §3.2: parameters sent more than once are an error; values are strings of bounded size. */
export function singleValued(form: unknown): Record<string, string> {
  const params: Record<string, string> = {};
  if (form === null || typeof form !== 'object' || Array.isArray(form)) return params;
  for (const [name, value] of Object.entries(form as Record<string, unknown>)) {
    if (typeof value !== 'string') throw new OAuthError('invalid_request', `parameter ${name} must be sent once, as a string`);
    if (value.length > MAX_PARAM_CHARS) throw new OAuthError('invalid_request', `parameter ${name} is too long`);
    params[name] = value;
  }
  return params;
}
