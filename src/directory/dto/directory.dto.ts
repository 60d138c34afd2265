import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, IsUUID, MaxLength } from 'class-validator';
import { Optional } from '../../common/optional';
import { OptionalText, PageLimit } from '../../common/dto-fields';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const normalizeEmail = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

export class DirectoryListQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @OptionalText(200, { description: 'Part of an email or a name, case-insensitive', maxLength: 200 })
  search?: string;
  @OptionalText(1000, { description: 'next_cursor of the previous page', maxLength: 1000 })
  cursor?: string;
  @PageLimit()
  limit?: number;
}

export class DirectoryUserQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
}

export class AddDirectoryUserDto {
  @ApiProperty({ format: 'uuid', example: '3f0c6a52-2f59-4f8e-9a51-5b0f7d0c2e11' }) @IsUUID() workspace_id: string;
  @ApiProperty({ example: 'ada@acme.test' }) @Transform(normalizeEmail) @IsEmail() @MaxLength(254) email: string;
  @ApiPropertyOptional({ example: 'Ada' }) @Optional() @Transform(trim) @IsString() @MaxLength(100) first_name?: string;
  @ApiPropertyOptional({ example: 'Lovelace' }) @Optional() @Transform(trim) @IsString() @MaxLength(100) last_name?: string;
}
