import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, IsUrl, IsUUID, Length, Matches } from 'class-validator';
import { Optional } from '../../common/optional';

/**
 * Absolute http(s) URLs in ASCII (RFC 6749 §3.1.2: a redirection endpoint is an absolute URI; RFC 3986 URIs are
 * ASCII, other characters percent-encoded). Without require_protocol, validator's isURL took a bare run of
 * non-ASCII letters for a host name (issue 28, found by the schema-driven fuzzer).
 */
const RedirectUris = () =>
  applyDecorators(
    IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { each: true }),
    Matches(/^[\x21-\x7e]+$/, { each: true, message: 'each value in redirect_uris must be ASCII (percent-encode other characters)' }),
  );

export class CreateOAuthClientDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @ApiProperty() @IsString() @Length(1, 200) name: string;
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @RedirectUris()
  redirect_uris?: string[];
}

export class UpdateOAuthClientDto {
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @RedirectUris()
  redirect_uris?: string[];
}

export class WorkspaceQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
}
