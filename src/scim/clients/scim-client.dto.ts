import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsObject, IsString, IsUrl, IsUUID, Length, ValidateIf } from 'class-validator';

/** Optional, but never null: `null` in a non-nullable field is a 400 validation_failed like any wrong type. */
const Optional = () => ValidateIf((_: unknown, value: unknown) => value !== undefined);
const URL_RULES = { require_tld: false, protocols: ['https', 'http'], require_protocol: true };

export class CreateScimClientDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id!: string;
  @ApiProperty({ example: 'Entra ID provisioning' }) @IsString() @Length(1, 200) label!: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Expiry of the first secret; default one year from now.' })
  @Optional()
  @IsDateString()
  expires_at?: string;
}

export class CreateScimClientSecretDto {
  @ApiPropertyOptional({ format: 'date-time', description: 'Default one year from now.' })
  @Optional()
  @IsDateString()
  expires_at?: string;
}

export class ScimClientKeysDto {
  @ApiPropertyOptional({ format: 'uri', description: 'A JWKS URL the server fetches the keys from (https).' })
  @Optional()
  @IsUrl(URL_RULES)
  @Length(1, 2000)
  jwks_uri?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'An RFC 7517 JWK Set of public keys (1 to 10).' })
  @Optional()
  @IsObject()
  jwks?: Record<string, unknown>;
}

export class ScimClientFederationDto {
  @ApiProperty({ example: 'https://login.microsoftonline.com/7d3b2c1a-0000-4000-8000-000000000000/v2.0' })
  @IsString()
  @Length(1, 500)
  issuer!: string;
  @ApiProperty({ format: 'uri', example: 'https://login.microsoftonline.com/7d3b2c1a-0000-4000-8000-000000000000/discovery/v2.0/keys' })
  @IsUrl(URL_RULES)
  @Length(1, 2000)
  jwks_uri!: string;
  @ApiProperty({ description: 'The `sub` the issuer puts in its JWTs for this client.', example: '5a8d0c0e-0000-4000-8000-000000000000' })
  @IsString()
  @Length(1, 500)
  subject!: string;
  @ApiPropertyOptional({ description: "The `aud` of its JWTs; default this server's issuer or token endpoint URL." })
  @Optional()
  @IsString()
  @Length(1, 500)
  audience?: string;
}
