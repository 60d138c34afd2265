import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { SUPPORTED_NAME_ID_FORMATS } from '../../protocol/saml-urns';
import { USER_FIELD_PATHS } from '../../protocol/user-claims';

/** Fields shared by create and partial update; rules that need more than one field live in sp-rules.ts. */
class SamlSpFields {
  @ApiPropertyOptional({ description: 'Human label; defaults to sp_entity_id' }) @IsOptional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional({ description: "The SP's entity id (the Issuer of its AuthnRequests); unique across the service" })
  @IsOptional()
  @IsString()
  @Length(1, 1024)
  sp_entity_id?: string;
  @ApiPropertyOptional({ description: 'Assertion consumer service URL: absolute https (http only for localhost)' })
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  acs_url?: string;
  @ApiPropertyOptional({ enum: SUPPORTED_NAME_ID_FORMATS, default: SUPPORTED_NAME_ID_FORMATS[0] })
  @IsOptional()
  @IsIn(SUPPORTED_NAME_ID_FORMATS)
  name_id_format?: string;
  @ApiPropertyOptional({
    enum: USER_FIELD_PATHS,
    default: 'email',
    description:
      'User field of the NameID. emailAddress: email; persistent and transient: id (their default; the value is generated, see docs/saml.md); unspecified: email or id. first_name, last_name and display_name are refused (not unique).',
  })
  @IsOptional()
  @IsIn(USER_FIELD_PATHS)
  name_id_attribute?: string;
  @ApiPropertyOptional({ default: true, description: 'false: the Response is signed instead of the Assertion' })
  @IsOptional()
  @IsBoolean()
  sign_assertions?: boolean;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', enum: [...USER_FIELD_PATHS] },
    example: { email: 'email', firstName: 'first_name' },
  })
  @IsOptional()
  @IsObject()
  attribute_mapping?: Record<string, string>;
  @ApiPropertyOptional({ description: 'SP certificate (PEM); stored, not used to verify requests', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(16_384)
  sp_cert_pem?: string | null;
  @ApiPropertyOptional({ description: 'Landing URL after sign-in when the request carries no RelayState', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  default_relay_state?: string | null;
  @ApiPropertyOptional({ default: true }) @IsOptional() @IsBoolean() is_active?: boolean;
  @ApiPropertyOptional({ description: "The SP's metadata XML: fills sp_entity_id, acs_url and sp_cert_pem (explicit fields win)" })
  @IsOptional()
  @IsString()
  @MaxLength(262_144)
  metadata_xml?: string;
}

export class CreateSamlSpDto extends SamlSpFields {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
}

export class UpdateSamlSpDto extends SamlSpFields {
  @ApiPropertyOptional({ format: 'uuid', description: 'Accepted only if unchanged; an SP cannot move between workspaces' })
  @IsOptional()
  @IsUUID()
  workspace_id?: string;
}

export class SamlSpListQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
}
