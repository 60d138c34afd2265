import { applyDecorators, Header, HttpCode, Post } from '@nestjs/common';
import { ApiConsumes } from '@nestjs/swagger';
import { Returns } from '../api-docs/decorators';
import type { NamedSchema } from '../api-docs/response-schema';
import { FORM, oauthErrors } from './oauth.docs';

/**
 * `POST path` of an OAuth endpoint that takes a form (RFC 6749 §3.2, RFC 7009, RFC 7662, OpenID
 * Connect Core §5.3.1): application/x-www-form-urlencoded in, 200 JSON out that no cache may keep
 * (RFC 6749 §5.1). The route adds its form (ApiBody) and its RFC 6749 §5.2 errors (decision 0975).
 */
export const OAuthFormRoute = (path: string, schema: NamedSchema<unknown>, answer: string) =>
  applyDecorators(ApiConsumes(FORM), Returns(200, schema, answer), Post(path), HttpCode(200), Header('Cache-Control', 'no-store'));

/** The body limit of the OAuth forms. */
export const FormTooLarge = () => oauthErrors(413, [['invalid_request', 'The form is larger than 32 KiB']]);
