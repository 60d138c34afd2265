import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { AssertionRefused, AssertionVerifier } from '../assertions/assertion-verifier';
import { OAuthError } from '../oauth.errors';
import { AccessTokensService } from '../tokens/access-tokens.service';
import { GrantHandler, GrantRequest, IssuedTokens, JWT_BEARER, TokenGrant } from './grants';
import { grantedScope } from './scope';

const MAX_ASSERTION_CHARS = 16 * 1024;

/**
 * RFC 7523 §2.1: a JWT from an issuer the client trusts (its federation: issuer, JWKS, subject,
 * audience) is exchanged for an access token: the shape of Entra's workload identity federation,
 * where no secret exists at all. The assertion's `jti`, when present, is never accepted twice.
 */
@Injectable()
@GrantHandler(JWT_BEARER, 'by-grant')
export class JwtBearerGrant implements TokenGrant {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly assertions: AssertionVerifier,
    private readonly tokens: AccessTokensService,
  ) {}

  async handle({ params, client }: GrantRequest): Promise<IssuedTokens> {
    const assertion = params.assertion;
    if (!assertion) throw new OAuthError('invalid_request', 'assertion is required');
    if (assertion.length > MAX_ASSERTION_CHARS) throw new OAuthError('invalid_grant', 'assertion too large');
    const federation = client.client.federation;
    if (!federation) throw new OAuthError('unauthorized_client', 'the client trusts no external issuer (PUT …/federation/ first)');
    const scope = grantedScope(client.client, params.scope);
    const base = this.config.PUBLIC_BASE_URL;
    try {
      await this.assertions.verify(assertion, {
        issuer: federation.issuer,
        subject: federation.subject,
        audiences: federation.audience ? [federation.audience] : [base, `${base}/oauth/token`],
        keys: federation.keys,
        maxSecondsAhead: null,
        requireJti: false,
      });
    } catch (err) {
      if (err instanceof AssertionRefused) throw new OAuthError('invalid_grant', err.message);
      throw err;
    }
    const { token, claims } = await this.tokens.issue({ ...client, credential: 'federation' }, scope);
    return { accessToken: token, claims };
  }
}
