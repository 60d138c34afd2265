import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsString, IsUrl, IsUUID, Matches, MaxLength, MinLength } from 'class-validator';
import { Optional } from '../../common/optional';
import { OptionalFlag, OptionalNested, OptionalNonEmptyText, OptionalTextList, PageLimit } from '../../common/dto-fields';

/** A DNS name of at least two labels, lower-case (RFC 1035 letters, digits, hyphens). */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** An upstream claim or attribute name (an OIDC claim, a SAML attribute name or URI). */
const CLAIM_NAME = /^[\x21-\x7e]{1,256}$/;
const ISSUER_URL = { protocols: ['https', 'http'], require_protocol: true, require_tld: false };

export class ProfileMappingDto {
  @ApiPropertyOptional({ example: 'email' }) @Optional() @Matches(CLAIM_NAME) email?: string;
  @ApiPropertyOptional({ example: 'given_name' }) @Optional() @Matches(CLAIM_NAME) given_name?: string;
  @ApiPropertyOptional({ example: 'family_name' }) @Optional() @Matches(CLAIM_NAME) family_name?: string;
  @ApiPropertyOptional({ example: 'groups' }) @Optional() @Matches(CLAIM_NAME) groups?: string;
}

export class SamlMappingDto extends ProfileMappingDto {
  @ApiPropertyOptional({ description: 'An immutable attribute used as the subject instead of the NameID', example: 'objectGUID' })
  @Optional()
  @Matches(CLAIM_NAME)
  subject?: string;
}

export class OidcSettingsDto {
  @ApiProperty({
    description: 'The issuer; discovery reads {issuer}/.well-known/openid-configuration',
    example: 'https://login.example.com',
  })
  @IsUrl(ISSUER_URL)
  @MaxLength(2048)
  issuer: string;
  @ApiProperty({ example: '0oa1b2c3d4' }) @IsString() @MinLength(1) @MaxLength(512) client_id: string;
  @OptionalNonEmptyText(2048, {
    description: 'Required with client_secret_basic / client_secret_post; stored encrypted, never shown again',
  })
  client_secret?: string;
  @ApiPropertyOptional({ enum: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'], default: 'client_secret_basic' })
  @Optional()
  @IsIn(['client_secret_basic', 'client_secret_post', 'private_key_jwt'])
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  @ApiPropertyOptional({ type: [String], description: 'Requested besides openid', example: ['email', 'profile'] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(20)
  @Matches(/^[\x21\x23-\x5b\x5d-\x7e]{1,64}$/, { each: true })
  scopes?: string[];
  @OptionalNested(ProfileMappingDto, { description: 'Claim names for our profile fields (defaults: the standard claims)' })
  claim_mapping?: ProfileMappingDto;
}

export class SamlSettingsDto {
  @OptionalNonEmptyText(262144, {
    description:
      "The IdP's metadata (an EntityDescriptor, 256 KiB at most): its entity id, HTTP-Redirect SSO URL and signing certificates fill idp_entity_id, idp_sso_url and idp_certificates, which are then not sent",
    example:
      '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="http://www.okta.com/exk1a2b3c4">…</EntityDescriptor>',
  })
  metadata_xml?: string;
  @ApiPropertyOptional({
    description: "The IdP's metadata URL, read once now (https and public only, as the JWKS fetches); instead of metadata_xml",
    example: 'https://example.okta.com/app/exk1a2b3c4/sso/saml/metadata',
  })
  @Optional()
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true, require_tld: false })
  @MaxLength(2048)
  metadata_url?: string;
  @OptionalNonEmptyText(1024, { example: 'http://www.okta.com/exk1a2b3c4' })
  idp_entity_id?: string;
  @ApiPropertyOptional({ example: 'https://example.okta.com/app/exk1a2b3c4/sso/saml' })
  @Optional()
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true, require_tld: false })
  @MaxLength(2048)
  idp_sso_url?: string;
  @OptionalTextList(2, 16384, { type: [String], description: 'PEM signing certificates, up to two (rollover)' })
  idp_certificates?: string[];
  @OptionalFlag({ description: 'Accept IdP-initiated responses (no AuthnRequest of ours)', default: false })
  allow_unsolicited?: boolean;
  @OptionalNested(SamlMappingDto)
  attribute_mapping?: SamlMappingDto;
}

class ConnectionFields {
  @ApiPropertyOptional({
    type: [String],
    description: 'Email domains this connection serves (verified by DNS TXT before routing)',
    example: ['example.com'],
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @Matches(DOMAIN, { each: true, message: 'each value in domains must be a lower-case domain name like example.com' })
  domains?: string[];
  @OptionalFlag({ description: 'Create a person on the first sign-in of an unknown verified email', default: false, example: false })
  jit?: boolean;
  @OptionalFlag({
    description: "Count the upstream's MFA claim (OIDC amr/acr, SAML AuthnContext) as our mfa",
    default: false,
    example: false,
  })
  trust_upstream_mfa?: boolean;
}

export class CreateSsoConnectionDto extends ConnectionFields {
  @ApiProperty({ format: 'uuid', example: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11' }) @IsUUID() workspace_id: string;
  @ApiProperty({ example: 'Acme Okta' }) @IsString() @MinLength(1) @MaxLength(200) name: string;
  @ApiProperty({ enum: ['oidc', 'saml'] }) @IsIn(['oidc', 'saml']) protocol: 'oidc' | 'saml';
  @OptionalNested(OidcSettingsDto, { description: 'Required when protocol is oidc' })
  oidc?: OidcSettingsDto;
  @OptionalNested(SamlSettingsDto, { description: 'Required when protocol is saml' })
  saml?: SamlSettingsDto;
}

/** Fields not sent are kept; a protocol's settings replace the fields they send. */
export class UpdateSsoConnectionDto extends ConnectionFields {
  @OptionalNonEmptyText(200, { example: 'Acme Entra ID' }) name?: string;
  @OptionalNested(OidcSettingsDto)
  oidc?: OidcSettingsDto;
  @OptionalNested(SamlSettingsDto)
  saml?: SamlSettingsDto;
}

export class AttemptsQueryDto {
  @PageLimit()
  limit?: number;
}
