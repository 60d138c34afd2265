import { Body, Get, Header, Headers } from '@nestjs/common';
import { ApiBearerAuth, ApiBody } from '@nestjs/swagger';
import { Doc, Returns } from '../../api-docs/decorators';
import { oauthErrors } from '../../oauth/oauth.docs';
import { OAuthFormRoute } from '../../oauth/oauth-routes';
import { UserInfoService } from './userinfo.service';
import { OidcUserInfoSchema } from './userinfo.schemas';
import { OAuthApi } from '../../common/controller-kinds';

const DESCRIPTION =
  'OpenID Connect Core §5.3. `Authorization: Bearer <access token>` of the authorization-code flow. Answers `sub` (the same as the ID token\'s) and, by the grant\'s scope, `email`, `email_verified` (scope email), `name`, `given_name`, `family_name` (scope profile). A token that is expired, revoked, or not issued to an application answers 401 with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3).';

@ApiBearerAuth('application-access-token')
@OAuthApi('oauth/userinfo', 'openid')
export class UserInfoController {
  constructor(private readonly userInfo: UserInfoService) {}

  @Doc('UserInfo', DESCRIPTION)
  @Returns(200, OidcUserInfoSchema, 'The claims about the signed-in person')
  @oauthErrors(401, [['invalid_token', 'Missing, expired or revoked access token, or one not issued to an application']])
  @Get()
  @Header('Cache-Control', 'no-store')
  get(@Headers('authorization') authorization: string | undefined) {
    return this.userInfo.claims(authorization);
  }

  @Doc('UserInfo (POST)', `${DESCRIPTION} The token may instead be sent as the \`access_token\` form parameter (RFC 6750 §2.2), not both.`)
  @ApiBody({
    required: false,
    schema: {
      type: 'object',
      properties: {
        access_token: { type: 'string', maxLength: 4096, description: 'The access token, when not in the Authorization header' },
      },
    },
  })
  @OAuthFormRoute('', OidcUserInfoSchema, 'The claims about the signed-in person')
  @oauthErrors(400, [['invalid_request', 'The access token was sent both in the header and in the form']])
  @oauthErrors(401, [['invalid_token', 'Missing, expired or revoked access token, or one not issued to an application']])
  post(@Headers('authorization') authorization: string | undefined, @Body() body: unknown) {
    const formToken = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).access_token : undefined;
    return this.userInfo.claims(authorization, formToken);
  }
}
