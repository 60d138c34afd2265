import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, IsUrl, IsUUID, Length } from 'class-validator';
import { Optional } from '../../common/optional';

export class CreateOAuthClientDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @ApiProperty() @IsString() @Length(1, 200) name: string;
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { each: true })
  redirect_uris?: string[];
}

export class UpdateOAuthClientDto {
  @ApiPropertyOptional() @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { each: true })
  redirect_uris?: string[];
}

export class WorkspaceQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
}
