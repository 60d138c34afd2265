import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { declaration } from '../../common/declared-providers';
import type { RequestMeta } from '../../common/request-context';
import type { AuthenticatedClient } from '../clients/registered-client';

/** RFC 7662 §2.2: what introspection says of an active token (an inactive one is only `{active: false}`). */
export interface IntrospectedToken {
  active: true;
  scope: string;
  client_id: string;
  token_type: 'Bearer' | 'refresh_token';
  sub: string;
  exp?: number;
  iat?: number;
  iss: string;
  aud?: string;
  sid?: string;
}

/**
 * A kind of token the revocation (RFC 7009) and introspection (RFC 7662) endpoints can look up:
 * the OpenID provider declares the applications' tokens (@TokenAuthoritySource). Each answers only for tokens issued to
 * the authenticated client, so one client can neither revoke nor read another's.
 */
export interface TokenAuthority {
  /** Revokes the token when it is one of this authority's and was issued to `client`; true when it was. */
  revoke(token: string, hint: string | undefined, client: AuthenticatedClient, request: RequestMeta): Promise<boolean>;
  /** The token's facts when it is active, one of this authority's and issued to `client`; null otherwise. */
  introspect(token: string, hint: string | undefined, client: AuthenticatedClient): Promise<IntrospectedToken | null>;
}

const authorities = declaration('a token authority');

/** Declares a provider a TokenAuthority the revocation and introspection endpoints ask (decision 0964). */
export const TokenAuthoritySource = () => authorities.mark<TokenAuthority>({});

/** The declared token authorities, read once at bootstrap; each token is asked of them in turn. */
@Injectable()
export class TokenAuthorities implements OnApplicationBootstrap {
  private readonly authorities: TokenAuthority[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    for (const { instance } of authorities.providers<TokenAuthority>(this.discovery)) this.authorities.push(instance);
  }

  async revoke(token: string, hint: string | undefined, client: AuthenticatedClient, request: RequestMeta): Promise<void> {
    for (const authority of this.authorities) if (await authority.revoke(token, hint, client, request)) return;
  }

  async introspect(token: string, hint: string | undefined, client: AuthenticatedClient): Promise<IntrospectedToken | { active: false }> {
    for (const authority of this.authorities) {
      const found = await authority.introspect(token, hint, client);
      if (found) return found;
    }
    return { active: false };
  }
}
