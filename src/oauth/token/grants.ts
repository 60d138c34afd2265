import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { declaration } from '../../common/declared-providers';
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

/** How a grant's client proves itself (see GrantHandler). */
export type GrantClientAuthentication = 'required' | 'by-grant';

interface GrantMark {
  grantType: string;
  clientAuthentication: GrantClientAuthentication;
}

/** One grant type of the token endpoint (RFC 6749 §4): given the authenticated client and the request's parameters, the tokens. */
export interface TokenGrant {
  handle(grant: GrantRequest): Promise<IssuedTokens>;
}

const grants = declaration<GrantMark>('a grant handler');

/**
 * Declares a provider the token endpoint's handler of `grantType` (decision 0964): the core declares
 * client_credentials and the JWT-bearer grant; the OpenID provider authorization_code and
 * refresh_token the same way (decision 0900). `clientAuthentication` 'required': the client must
 * authenticate (secret or private_key_jwt), unless it is a public client whose registered methods
 * include `none`; 'by-grant': the grant's own assertion identifies the client, so a bare client_id
 * is enough (RFC 7523 §2.1, §3.1).
 */
export const GrantHandler = (grantType: string, clientAuthentication: GrantClientAuthentication = 'required') =>
  grants.mark<TokenGrant>({ grantType, clientAuthentication });

/** A grant type the token endpoint serves: its declaration and its handler. */
export interface RegisteredGrant extends GrantMark {
  handler: TokenGrant;
}

/** The token endpoint's grant types, by name: the providers declared with @GrantHandler, read once at bootstrap. */
@Injectable()
export class GrantRegistry implements OnApplicationBootstrap {
  private readonly handlers = new Map<string, RegisteredGrant>();

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    for (const { instance, meta, name } of grants.providers<TokenGrant>(this.discovery)) {
      if (this.handlers.has(meta.grantType)) throw new Error(`grant ${meta.grantType} declared twice (${name})`);
      this.handlers.set(meta.grantType, { ...meta, handler: instance });
    }
  }

  get(grantType: string): RegisteredGrant | undefined {
    return this.handlers.get(grantType);
  }

  grantTypes(): string[] {
    return [...this.handlers.keys()];
  }
}
