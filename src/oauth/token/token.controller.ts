import { Body, Header, Headers } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { Doc } from '../../api-docs/decorators';
import { oauthErrors } from '../oauth.docs';
import { FormTooLarge, OAuthFormRoute } from '../oauth-routes';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { TokenEndpointService } from './token-endpoint.service';
import { OAuthTokenResponseSchema } from '../oauth.schemas';
import { OAuthApi } from '../../common/controller-kinds';

@OAuthApi('oauth', 'oauth')
export class TokenController {
  constructor(private readonly tokens: TokenEndpointService) {}

  @Doc(
    'Get an access token',
    "RFC 6749 token endpoint. `grant_type=client_credentials` (§4.4) with client authentication `client_secret_basic` (HTTP Basic), `client_secret_post` (client_id and client_secret in the form) or `private_key_jwt` (RFC 7523 §2.2: client_assertion_type `urn:ietf:params:oauth:client-assertion-type:jwt-bearer`, a JWT with iss = sub = client_id, aud = this URL, exp at most 5 minutes ahead, a jti never used before); or `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` (RFC 7523 §2.1) with `assertion` (a JWT of the issuer the client trusts, see PUT /developer/scim/clients/{id}/federation/) and `client_id`. Access tokens are signed JWTs (EdDSA) living OAUTH_ACCESS_TOKEN_TTL_SECONDS (default 1 h); a SCIM client's token works on /scim/v2 of its workspace like a `scim_` token. Applications (OpenID Connect, see docs/oidc.md) use `grant_type=authorization_code` (`code`, `redirect_uri`, PKCE `code_verifier`; a code works once, and presented again revokes what it issued) and `grant_type=refresh_token` (each refresh token works once; a spent one revokes its session), authenticating with `client_secret_basic`, `client_secret_post`, `private_key_jwt`, or `none` with `client_id` for a public client; they get `access_token` (the end-user access token), `refresh_token` and `id_token`. Errors follow RFC 6749 §5.2.",
  )
  @ApiBody({
    required: true,
    schema: {
      type: 'object',
      required: ['grant_type'],
      properties: {
        grant_type: {
          type: 'string',
          enum: ['client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer', 'authorization_code', 'refresh_token'],
        },
        code: { type: 'string', description: 'authorization_code: the code of the authorization response' },
        redirect_uri: { type: 'string', description: 'authorization_code: the redirect_uri of the authorization request' },
        code_verifier: { type: 'string', description: 'authorization_code: the PKCE verifier (RFC 7636)' },
        refresh_token: { type: 'string', description: 'refresh_token: the refresh token to rotate' },
        scope: { type: 'string', example: 'scim' },
        client_id: { type: 'string', example: 'scimc_4f0d1e2a9b8c7d6e5f4a3b2c' },
        client_secret: { type: 'string', description: 'client_secret_post only' },
        client_assertion_type: { type: 'string', enum: ['urn:ietf:params:oauth:client-assertion-type:jwt-bearer'] },
        client_assertion: { type: 'string', description: 'private_key_jwt: the signed client assertion' },
        assertion: { type: 'string', description: 'jwt-bearer grant: the JWT of the trusted issuer' },
      },
    },
  })
  @OAuthFormRoute('token', OAuthTokenResponseSchema, 'The access token (Cache-Control: no-store)')
  @oauthErrors(400, [
    ['invalid_request', 'A parameter is missing, repeated or malformed, or the body is not a form'],
    [
      'invalid_grant',
      "The JWT-bearer assertion is expired, replayed, wrongly signed or not for this client; the code or refresh token is invalid, expired, spent or another client's; the PKCE verifier or redirect_uri does not match",
    ],
    ['unauthorized_client', 'The client may not use this grant type (e.g. no trusted issuer configured)'],
    ['unsupported_grant_type', 'The grant type is not one this server supports'],
    ['invalid_scope', 'A requested scope is not available to the client'],
  ])
  @FormTooLarge()
  @oauthErrors(401, [
    ['invalid_client', 'Unknown client, wrong or revoked secret, refused client assertion (with WWW-Authenticate after Basic)'],
  ])
  @Header('Pragma', 'no-cache')
  token(
    @Body() body: unknown,
    @Headers('content-type') contentType: string | undefined,
    @Headers('authorization') authorization: string | undefined,
    @ReqMeta() meta: RequestMeta,
  ) {
    const isForm = /^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType ?? '');
    return this.tokens.token(body, isForm, authorization, meta);
  }
}
