import { Body, Headers } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { Doc } from '../../api-docs/decorators';
import { ReqMeta, type RequestMeta } from '../../common/request-context';
import { oauthErrors } from '../oauth.docs';
import { FormTooLarge, OAuthFormRoute } from '../oauth-routes';
import { TokenManagementService } from './token-management.service';
import { OAuthIntrospectionSchema, OAuthRevocationSchema } from '../oauth.schemas';
import { OAuthApi } from '../../common/controller-kinds';

const isForm = (contentType: string | undefined) => /^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType ?? '');

const tokenForm = (description: string) =>
  ApiBody({
    required: true,
    schema: {
      type: 'object',
      required: ['token'],
      properties: {
        token: { type: 'string', description },
        token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
        client_id: { type: 'string', example: 'cli_4f0d1e2a9b8c7d6e5f4a3b2c' },
        client_secret: { type: 'string', description: 'client_secret_post only' },
        client_assertion_type: { type: 'string', enum: ['urn:ietf:params:oauth:client-assertion-type:jwt-bearer'] },
        client_assertion: { type: 'string', description: 'private_key_jwt: the signed client assertion' },
      },
    },
  });

const clientErrors = () => oauthErrors(401, [['invalid_client', 'Unknown client, wrong secret or refused client assertion']]);
const requestErrors = () => oauthErrors(400, [['invalid_request', 'token is missing, a parameter is repeated, or the body is not a form']]);

@OAuthApi('oauth', 'oauth')
export class TokenManagementController {
  constructor(private readonly tokens: TokenManagementService) {}

  @Doc(
    'Revoke a token',
    "RFC 7009. The client authenticates as at the token endpoint (a public client sends its client_id). An application's access or refresh token ends its session: both stop working on their next use. Answers 200 whether or not the token was known or already revoked; another client's token is left alone.",
  )
  @tokenForm('The access or refresh token to revoke')
  @OAuthFormRoute('revoke', OAuthRevocationSchema, 'Revoked, or nothing to revoke')
  @requestErrors()
  @FormTooLarge()
  @clientErrors()
  async revoke(
    @Body() body: unknown,
    @Headers('content-type') contentType: string | undefined,
    @Headers('authorization') authorization: string | undefined,
    @ReqMeta() meta: RequestMeta,
  ): Promise<Record<string, never>> {
    await this.tokens.revoke(body, isForm(contentType), authorization, meta);
    return {};
  }

  @Doc(
    'Introspect a token',
    'RFC 7662, for an application\'s own APIs: a confidential client asks whether a token issued to it is active, and with which scope, subject and expiry. A token that is expired, revoked, unknown or issued to another client answers `{"active": false}`.',
  )
  @tokenForm('The access or refresh token to look up')
  @OAuthFormRoute('introspect', OAuthIntrospectionSchema, 'Whether the token is active, and its facts when it is')
  @requestErrors()
  @FormTooLarge()
  @clientErrors()
  introspect(
    @Body() body: unknown,
    @Headers('content-type') contentType: string | undefined,
    @Headers('authorization') authorization: string | undefined,
  ) {
    return this.tokens.introspect(body, isForm(contentType), authorization);
  }
}
