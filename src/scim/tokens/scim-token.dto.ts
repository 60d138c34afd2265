import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsString, IsUUID, Length } from 'class-validator';
import { Optional } from '../../common/optional';

export class CreateScimTokenDto {
  @ApiProperty({ format: 'uuid' }) @IsUUID() workspace_id: string;
  @ApiProperty() @IsString() @Length(1, 200) label: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'null or left out: the token lasts until revoked' })
  @Optional({ nullable: true })
  @IsDateString()
  expires_at?: string | null;
}
