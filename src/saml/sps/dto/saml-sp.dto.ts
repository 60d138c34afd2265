import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsObject, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { SUPPORTED_NAME_ID_FORMATS } from '../../protocol/saml-urns';
import { USER_FIELD_PATHS } from '../../protocol/user-claims';
import { Optional } from '../../../common/optional';

/** Fields shared by create and partial update; rules that need more than one field live in sp-rules.ts. */
class SamlSpFields {
  @ApiPropertyOptional({ description: 'Human label; defaults to sp_entity_id' }) @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional({ description: "The SP's entity id (the Issuer of its AuthnRequests); unique across the service" })
  @Optional()
  @IsString()
  @Length(1, 1024)
  sp_entity_id?: string;
  @ApiPropertyOptional({ description: 'Assertion consumer service URL: absolute https (http only for localhost)' })
  @Optional()
  @IsString()
  @Length(1, 2048)
  acs_url?: string;
  @ApiPropertyOptional({ enum: SUPPORTED_NAME_ID_FORMATS, default: SUPPORTED_NAME_ID_FORMATS[0] })
  @Optional()
  @IsIn(SUPPORTED_NAME_ID_FORMATS)
  name_id_format?: string;
  @ApiPropertyOptional({
    enum: USER_FIELD_PATHS,
    default: 'email',
    description:
      'User field of the NameID. emailAddress: email; persistent and transient: id (their default; the value is generated, see docs/saml.md); unspecified: email or id. first_name, last_name and display_name are refused (not unique).',
  })
  @Optional()
  @IsIn(USER_FIELD_PATHS)
  name_id_attribute?: string;
  @ApiPropertyOptional({ default: true, description: 'false: the Response is signed instead of the Assertion' })
  @Optional()
  @IsBoolean()
  sign_assertions?: boolean;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', enum: [...USER_FIELD_PATHS] },
    example: { email: 'email', firstName: 'first_name' },
  })
  @Optional()
  @IsObject()
  attribute_mapping?: Record<string, string>;
  @ApiPropertyOptional({
    type: String,
    description: 'SP certificate (PEM); stored, not used to verify requests; null removes it',
    nullable: true,
  })
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(16_384)
  sp_cert_pem?: string | null;
  @ApiPropertyOptional({
    type: String,
    description: 'Landing URL after sign-in when the request carries no RelayState; null removes it',
    nullable: true,
  })
  @Optional({ nullable: true })
  @IsString()
  @MaxLength(2048)
  default_relay_state?: string | null;
  @ApiPropertyOptional({ default: true }) @Optional() @IsBoolean() is_active?: boolean;
  @ApiPropertyOptional({ description: "The SP's metadata XML: fills sp_entity_id, acs_url and sp_cert_pem (explicit fields win)" })
  @Optional()
  @IsString()
  @MaxLength(262_144)
  metadata_xml?: string;
}

export class CreateSamlSpDto extends SamlSpFields {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
}

export class UpdateSamlSpDto extends SamlSpFields {
  @ApiPropertyOptional({ format: 'uuid', description: 'Accepted only if unchanged; an SP cannot move between workspaces' })
  @Optional()
  @IsUUID()
  workspace_id?: string;
}
