import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsString, IsUrl, IsUUID, Length, Matches, ValidateBy } from 'class-validator';
import { Optional } from '../../common/optional';
import { isPrivateUseRedirectUri, isWebRedirectUri, WEB_URL } from '../redirect-uris';

/**
 * Absolute http(s) URLs in ASCII (RFC 6749 §3.1.2: a redirection endpoint is an absolute URI; RFC 3986 URIs are
 * ASCII, other characters percent-encoded). Without require_protocol, validator's isURL took a bare run of
 * non-ASCII letters for a host name (found by the schema-driven fuzzer, decision 0921).
 */
const AsciiEach = () =>
  Matches(/^[\x21-\x7e]+$/, { each: true, message: 'each value in $property must be ASCII (percent-encode other characters)' });

const WebUris = () => applyDecorators(IsUrl(WEB_URL, { each: true }), AsciiEach());

/** Redirect URIs: the web URLs above, or a native app's private-use URI scheme (RFC 8252 §7.1; public clients only, the service checks). */
const RedirectUris = () =>
  applyDecorators(
    ValidateBy(
      {
        name: 'isRedirectUri',
        validator: {
          validate: (value: unknown) => typeof value === 'string' && (isWebRedirectUri(value) || isPrivateUseRedirectUri(value)),
          defaultMessage: () =>
            'each value in redirect_uris must be an absolute http(s) URL, or for a public client a private-use URI scheme named after a domain in reverse order (com.example.app:/callback, RFC 8252 §7.1)',
        },
      },
      { each: true },
    ),
    AsciiEach(),
  );

const UriList = (description: string, uris: () => PropertyDecorator) =>
  applyDecorators(ApiPropertyOptional({ type: [String], description }), Optional(), IsArray(), ArrayMaxSize(50), uris());

/** What an application says about itself as an OpenID client (decision 0913); every field optional, with the defaults of a first-party web app. */
class OpenIdClientFields {
  @UriList(
    'Exact redirect URIs of the authorization-code flow (no wildcards; an http loopback IP literal may be used with any port, RFC 8252 §7.3; a public client may also use a private-use URI scheme named after a domain in reverse order, e.g. com.example.app:/callback, RFC 8252 §7.1).',
    RedirectUris,
  )
  redirect_uris?: string[];

  @UriList('Where RP-initiated logout may return to (exact match).', WebUris)
  post_logout_redirect_uris?: string[];

  @ApiPropertyOptional({
    enum: ['confidential', 'public'],
    description:
      'public: a native or single-page app with no secret (token endpoint authentication none, PKCE as its proof). Fixed at creation.',
  })
  @Optional()
  @IsIn(['confidential', 'public'])
  client_type?: 'confidential' | 'public';

  @ApiPropertyOptional({ description: 'First-party apps skip the consent screen; third-party ones ask each person once (default true).' })
  @Optional()
  @IsBoolean()
  first_party?: boolean;

  @ApiPropertyOptional({
    description:
      'The hosted login offers "Create an account" (email, password, then the emailed 6-digit code) to people without an account of this application (default false).',
  })
  @Optional()
  @IsBoolean()
  allow_signup?: boolean;

  @ApiPropertyOptional({
    description:
      'Whether authorization requests must carry PKCE (code_challenge, S256; default true). Only a confidential client may set false: its requests may then omit PKCE and must carry a nonce instead. A public client always uses PKCE (400 if false).',
  })
  @Optional()
  @IsBoolean()
  require_pkce?: boolean;

  @ApiPropertyOptional({ enum: ['public', 'pairwise'], description: 'pairwise: `sub` differs per application (OpenID Connect Core §8.1).' })
  @Optional()
  @IsIn(['public', 'pairwise'])
  subject_type?: 'public' | 'pairwise';

  @ApiPropertyOptional({ enum: ['RS256', 'ES256'], description: 'Algorithm of its ID tokens (default RS256).' })
  @Optional()
  @IsIn(['RS256', 'ES256'])
  id_token_signed_response_alg?: 'RS256' | 'ES256';

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'An RFC 7517 JWK Set of 1 to 10 public keys: the client may then authenticate with private_key_jwt (RFC 7523 §2.2).',
  })
  @Optional()
  @IsObject()
  jwks?: Record<string, unknown>;
}

export class CreateOAuthClientDto extends OpenIdClientFields {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @ApiProperty() @IsString() @Length(1, 200) name: string;
}

export class UpdateOAuthClientDto extends OpenIdClientFields {
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 200) name?: string;
}
