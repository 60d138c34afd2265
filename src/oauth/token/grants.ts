import { Injectable } from '@nestjs/common';
import type { RequestMeta } from '../../common/request-context';
import type { AuthenticatedClient } from '../clients/registered-client';
import type { AccessTokenClaims } from '../tokens/access-tokens.service';

export const CLIENT_CREDENTIALS = 'client_credentials';
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** What a grant hands the token endpoint: the access token, and whatever else it issued (the OpenID provider's refresh and ID tokens, decision 0912). */
export interface IssuedTokens {
  accessToken: string;
  claims: AccessTokenClaims;
  /** Extra members of the token response (refresh_token, id_token). */
  extra?: Record<string, string>;
  /** Facts the `oauth_token_issue` audit row adds (the user and session of an application's tokens). */
  audit?: Record<string, unknown>;
  /**
   * True when the grant wrote the `oauth_token_issue` row itself, in the same write as its tokens
   * (tokenIssueEvent); otherwise the token endpoint publishes it.
   */
  recorded?: boolean;
}

export interface GrantRequest {
  /** The form parameters, each a single string (repeated ones are refused before this). */
  params: Readonly<Record<string, string>>;
  /** The client, authenticated by one method (or `none` when the grant allows it). */
  client: AuthenticatedClient;
  request: RequestMeta;
}

/**
 * One grant type of the token endpoint (RFC 6749 §4). The core registers client_credentials and
 * the JWT-bearer grant; the OpenID provider registers authorization_code and refresh_token the same way (decision 0900).
 */
export interface GrantHandler {
  readonly grantType: string;
  /**
   * 'required': the client must authenticate (secret or private_key_jwt), unless it is a public
   * client whose registered methods include `none`. 'by-grant': the grant's own assertion
   * identifies the client, so a bare client_id is enough (RFC 7523 §2.1, §3.1).
   */
  readonly clientAuthentication: 'required' | 'by-grant';
  handle(grant: GrantRequest): Promise<IssuedTokens>;
}

/** The token endpoint's grant types, by name. */
@Injectable()
export class GrantRegistry {
  private readonly handlers = new Map<string, GrantHandler>();

  register(handler: GrantHandler): void {
    if (this.handlers.has(handler.grantType)) throw new Error(`grant ${handler.grantType} registered twice`);
    this.handlers.set(handler.grantType, handler);
  }

  get(grantType: string): GrantHandler | undefined {
    return this.handlers.get(grantType);
  }

  grantTypes(): string[] {
    return [...this.handlers.keys()];
  }
}
