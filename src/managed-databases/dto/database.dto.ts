import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNotEmpty, IsString, Max, MaxLength, Min } from 'class-validator';
import { ENGINE_NAMES, type EngineName } from '../engines/database-engine';
import { QueryInt } from '../../common/integer-string';
import { Optional } from '../../common/optional';

export class CreateDatabaseDto {
  @ApiProperty({ example: 'Orders' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  display_name: string;

  @ApiProperty({ enum: ENGINE_NAMES })
  @IsIn(ENGINE_NAMES as unknown as string[], { message: `engine must be one of: ${ENGINE_NAMES.join(', ')}` })
  engine: EngineName;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, description: 'Defaults to 20' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(500)
  max_connections?: number;

  @ApiPropertyOptional({ minimum: 16, maximum: 102400, description: 'Defaults to 1024 (Redis: 256)' })
  @Optional()
  @IsInt()
  @Min(16)
  @Max(102400)
  max_storage_mb?: number;
}

export class CreateBackupDto {
  @ApiProperty({ example: 'before-migration' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;
}

export class ListKeysQuery {
  @ApiPropertyOptional({ description: 'next_cursor of the previous page; omit for the first page' })
  @Optional()
  @IsString()
  @MaxLength(40)
  cursor?: string;

  @ApiPropertyOptional({ description: 'Keys per page (a hint to SCAN)', default: 100 })
  @Optional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(1000)
  count?: number;
}
