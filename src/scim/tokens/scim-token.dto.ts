import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsOptional, IsString, IsUUID, Length } from 'class-validator';

export class CreateScimTokenDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @ApiProperty() @IsString() @Length(1, 200) label: string;
  @ApiPropertyOptional({ format: 'date-time' }) @IsOptional() @IsDateString() expires_at?: string;
}

export class ScimTokenQueryDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
}
